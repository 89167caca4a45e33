package dev.threadline.local.kubelet;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Which images can run on this host, and how. Local mode pulls no images: a container runs only if
 * its image matches a registered entry (the first match wins).
 */
public final class LocalImages {
  private final List<Entry> entries = new CopyOnWriteArrayList<>();

  public LocalImages register(
      String description, Predicate<String> imageMatcher, LocalProgram program) {
    entries.add(
        new Entry(
            Objects.requireNonNull(description, "description"),
            Objects.requireNonNull(imageMatcher, "imageMatcher"),
            Objects.requireNonNull(program, "program")));
    return this;
  }

  public Optional<LocalProgram> find(String image) {
    if (image == null) {
      return Optional.empty();
    }
    return entries.stream()
        .filter(entry -> entry.matcher.test(image))
        .map(Entry::program)
        .findFirst();
  }

  /** What each registered entry runs, for messages that tell a user which images work here. */
  public List<String> descriptions() {
    return entries.stream().map(Entry::description).toList();
  }

  /**
   * Matches an image by repository name whatever its registry, tag or digest: {@code
   * repository("busybox")} matches {@code busybox}, {@code busybox:1.36}, {@code
   * docker.io/library/busybox@sha256:…}.
   */
  public static Predicate<String> repository(String name) {
    return image -> name.equals(repositoryOf(image));
  }

  static String repositoryOf(String image) {
    String withoutDigest = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
    int lastSlash = withoutDigest.lastIndexOf('/');
    int tagColon = withoutDigest.lastIndexOf(':');
    String withoutTag = tagColon > lastSlash ? withoutDigest.substring(0, tagColon) : withoutDigest;
    for (String defaultPrefix :
        List.of("docker.io/library/", "docker.io/", "index.docker.io/library/")) {
      if (withoutTag.startsWith(defaultPrefix)) {
        return withoutTag.substring(defaultPrefix.length());
      }
    }
    return withoutTag;
  }

  private record Entry(String description, Predicate<String> matcher, LocalProgram program) {}
}
