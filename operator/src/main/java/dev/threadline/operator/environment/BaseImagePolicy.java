package dev.threadline.operator.environment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which images a build may pull: every {@code FROM} image and every image a {@code COPY --from}
 * names must match the allow-list (the chart's {@code builds.allowedImages}), so that a tenant
 * cannot build from an image an administrator has not vetted. The operator's own base and runner
 * images are always allowed; {@code scratch} and earlier stages need no pull.
 *
 * <p>An entry is an image reference, matched with Docker Hub's short names expanded ({@code ubuntu}
 * is {@code docker.io/library/ubuntu}): a repository ({@code docker.io/library/ubuntu}) allows any
 * tag or digest of it, a reference with a tag or digest allows exactly that, and an entry ending in
 * {@code *} allows every reference that starts with what precedes it ({@code docker.io/library/*};
 * {@code *} alone allows all). A reference holding a variable ({@code $}) is refused: what it pulls
 * cannot be known before the build.
 */
final class BaseImagePolicy {
  private static final Pattern FROM =
      Pattern.compile("(?i)^FROM\\s++(?:--\\S++\\s++)*+(\\S++)(?:\\s++AS\\s++(\\S++))?");
  private static final Pattern COPY_FROM = Pattern.compile("(?i)^COPY\\s.*?--from=(\\S++)");
  private static final String DOCKER_HUB = "docker.io/";

  private final List<String> allowed;
  private final Set<String> alwaysAllowed;

  BaseImagePolicy(List<String> allowed, List<String> alwaysAllowed) {
    this.allowed = allowed.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    this.alwaysAllowed = new HashSet<>();
    alwaysAllowed.stream().map(BaseImagePolicy::normalize).forEach(this.alwaysAllowed::add);
  }

  /** The message for buildError when the Dockerfile pulls an image not allowed; else empty. */
  Optional<String> refusal(String dockerfile) {
    for (String image : pulledImages(dockerfile)) {
      if (!isAllowed(image)) {
        return Optional.of(
            "Base image not allowed: "
                + image
                + " is not in the build allow-list ("
                + String.join(", ", allowed)
                + ")");
      }
    }
    return Optional.empty();
  }

  boolean isAllowed(String image) {
    if (image.contains("$")) {
      return false;
    }
    String reference = normalize(image);
    if (alwaysAllowed.contains(reference)) {
      return true;
    }
    for (String entry : allowed) {
      if (entry.endsWith("*")) {
        String prefix = entry.substring(0, entry.length() - 1);
        if (prefix.isEmpty() || reference.startsWith(normalize(prefix))) {
          return true;
        }
      } else {
        String wanted = normalize(entry);
        if (wanted.equals(reference) || wanted.equals(repository(reference))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The images the Dockerfile pulls, in order: FROM images and COPY --from images. */
  static List<String> pulledImages(String dockerfile) {
    List<String> images = new ArrayList<>();
    Set<String> stages = new HashSet<>();
    stages.add("scratch");
    for (String instruction : instructions(dockerfile)) {
      Matcher from = FROM.matcher(instruction);
      if (from.find()) {
        addUnlessStage(images, stages, from.group(1));
        if (from.group(2) != null) {
          stages.add(from.group(2).toLowerCase(Locale.ROOT));
        }
        continue;
      }
      Matcher copy = COPY_FROM.matcher(instruction);
      if (copy.find() && !copy.group(1).matches("\\d++")) {
        addUnlessStage(images, stages, copy.group(1));
      }
    }
    return images;
  }

  private static void addUnlessStage(List<String> images, Set<String> stages, String image) {
    if (!stages.contains(image.toLowerCase(Locale.ROOT))) {
      images.add(image);
    }
  }

  /** Logical lines: continuations ({@code \} at the end) joined, comments and blanks dropped. */
  private static List<String> instructions(String dockerfile) {
    List<String> instructions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : dockerfile.split("\n", -1)) {
      String stripped = line.strip();
      if (current.isEmpty() && (stripped.isEmpty() || stripped.startsWith("#"))) {
        continue;
      }
      if (stripped.endsWith("\\")) {
        current.append(stripped, 0, stripped.length() - 1).append(' ');
      } else {
        current.append(stripped);
        instructions.add(current.toString());
        current.setLength(0);
      }
    }
    if (!current.isEmpty()) {
      instructions.add(current.toString());
    }
    return instructions;
  }

  /** Docker Hub's short forms made explicit: {@code ubuntu:24.04} → {@code docker.io/library/…}. */
  static String normalize(String image) {
    String reference = image.strip();
    if (reference.startsWith("index.docker.io/")) {
      reference = DOCKER_HUB + reference.substring("index.docker.io/".length());
    }
    int slash = reference.indexOf('/');
    if (slash < 0) {
      return DOCKER_HUB + "library/" + reference;
    }
    String first = reference.substring(0, slash);
    boolean registry = first.contains(".") || first.contains(":") || first.equals("localhost");
    return registry ? reference : DOCKER_HUB + reference;
  }

  /** The reference without its tag and digest. */
  private static String repository(String reference) {
    String withoutDigest =
        reference.contains("@") ? reference.substring(0, reference.indexOf('@')) : reference;
    int lastSlash = withoutDigest.lastIndexOf('/');
    int colon = withoutDigest.lastIndexOf(':');
    return colon > lastSlash ? withoutDigest.substring(0, colon) : withoutDigest;
  }
}
