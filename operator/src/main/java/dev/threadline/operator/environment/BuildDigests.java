package dev.threadline.operator.environment;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The image digest in what the push step reports: {@code <repository>@sha256:<64 hex>}. */
final class BuildDigests {
  private static final Pattern DIGEST = Pattern.compile("@(sha256:[0-9a-f]{64})(?![0-9a-f])");

  private BuildDigests() {}

  static Optional<String> of(String pushedReferences) {
    Matcher matcher = DIGEST.matcher(pushedReferences);
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }
}
