package dev.threadline.core.environment;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Container image references as Docker's distribution library accepts them: {@code
 * [registry[:port]/]path[:tag][@digest]}. A user's {@code baseImage} goes onto the {@code FROM}
 * line, so it must be exactly one reference and nothing more (no spaces, no {@code AS}, no line
 * breaks).
 */
public final class ImageReferences {

  /** Docker's own limit on the repository name. */
  private static final int MAX_NAME_LENGTH = 255;

  /**
   * A name, a 128-character tag and a long digest fit; the pattern below nests repetitions, so it
   * only ever sees text this short.
   */
  public static final int MAX_LENGTH = 512;

  private static final String DOMAIN_PART = "[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
  private static final String DOMAIN = DOMAIN_PART + "(?:\\." + DOMAIN_PART + ")*(?::[0-9]{1,5})?";
  private static final String PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
  private static final String TAG = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
  private static final String DIGEST =
      "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";

  private static final Pattern REFERENCE =
      Pattern.compile(
          "(?<name>(?:"
              + DOMAIN
              + "/)?"
              + PATH_COMPONENT
              + "(?:/"
              + PATH_COMPONENT
              + ")*)"
              + "(?::"
              + TAG
              + ")?"
              + "(?:@"
              + DIGEST
              + ")?");

  private static final Pattern TAG_ONLY = Pattern.compile(TAG);

  private ImageReferences() {}

  /** Why {@code reference} is not a valid image reference, or empty when it is. */
  public static Optional<String> check(String reference) {
    if (reference == null || reference.isEmpty()) {
      return Optional.of("must be an image reference such as debian:bookworm");
    }
    if (reference.length() > MAX_LENGTH) {
      return Optional.of("longer than " + MAX_LENGTH + " characters");
    }
    var matcher = REFERENCE.matcher(reference);
    if (!matcher.matches()) {
      return Optional.of(
          MessageText.literal(reference)
              + " is not an image reference ([registry/]name[:tag][@digest], lower-case name)");
    }
    if (matcher.group("name").length() > MAX_NAME_LENGTH) {
      return Optional.of("image name longer than " + MAX_NAME_LENGTH + " characters");
    }
    return Optional.empty();
  }

  /**
   * Why {@code reference} cannot be an Environment's base image, or empty when it can: it must be a
   * valid reference to a glibc Linux image, since the runner's Java runtime is copied onto it.
   */
  public static Optional<String> checkBaseImage(String reference) {
    Optional<String> problem = check(reference);
    if (problem.isEmpty() && looksMuslBased(reference)) {
      return Optional.of(
          reference
              + " is Alpine/musl-based; agents need a glibc Linux image such as"
              + " debian:bookworm-slim, ubuntu:24.04 or python:3.12-slim");
    }
    return problem;
  }

  /**
   * Whether a (valid) reference names an Alpine or other musl-based image, by the conventions image
   * publishers follow ({@code alpine:3.20}, {@code python:3.12-alpine}, {@code
   * node:20-alpine3.19}). The runner's Java runtime is linked against glibc and cannot start there.
   */
  private static boolean looksMuslBased(String reference) {
    String withoutDigest = reference.split("@", 2)[0];
    String lastComponent = withoutDigest.substring(withoutDigest.lastIndexOf('/') + 1);
    int colon = lastComponent.indexOf(':');
    String repository = colon < 0 ? lastComponent : lastComponent.substring(0, colon);
    String tag = colon < 0 ? "" : lastComponent.substring(colon + 1);
    return repository.equals("alpine")
        || repository.equals("busybox")
        || tag.contains("alpine")
        || tag.contains("musl");
  }

  public static boolean isValid(String reference) {
    return check(reference).isEmpty();
  }

  /** Whether {@code tag} is a valid image tag (the part after {@code :}). */
  static boolean isValidTag(String tag) {
    return tag != null && TAG_ONLY.matcher(tag).matches();
  }

  /**
   * @throws IllegalArgumentException naming {@code what} when {@code reference} is invalid
   */
  static String require(String reference, String what) {
    check(reference)
        .ifPresent(problem -> {
          throw new IllegalArgumentException(what + ": " + problem);
        });
    return reference;
  }
}
