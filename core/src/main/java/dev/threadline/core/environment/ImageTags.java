package dev.threadline.core.environment;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Names of built environment images: the contract's tag shape {@code env-<name>:<hash>} and its
 * full reference in the configured registry.
 *
 * <p>The environment's name is free text, but a repository name is not: it is lower-cased, accents
 * are dropped, and every run of other characters becomes one {@code -} ({@code "My Env!"} gives
 * {@code env-my-env}). Two environments whose names map to the same repository share it safely:
 * equal hashes mean equal images.
 */
public final class ImageTags {

  /** Keeps {@code <registry>/env-<name>} well inside registries' path limits. */
  static final int MAX_NAME_LENGTH = 100;

  private ImageTags() {}

  /** {@code env-<name>:<hash>}. */
  public static String forEnvironment(String envName, BuildHash hash) {
    return forEnvironment(envName, hash.value());
  }

  /**
   * {@code env-<name>:<hash>}.
   *
   * @throws IllegalArgumentException when the name has no letter or digit, or the hash is not a
   *     valid tag
   */
  public static String forEnvironment(String envName, String hash) {
    if (!ImageReferences.isValidTag(hash)) {
      throw new IllegalArgumentException("Not a valid image tag: " + MessageText.literal(hash));
    }
    return "env-" + repositoryPart(envName) + ":" + hash;
  }

  /**
   * The full reference of {@code tag} in {@code registry} (e.g. {@code
   * registry.example.com:5000/team} and {@code env-web:0123456789abcdef}); the tag alone when no
   * registry is configured.
   *
   * @throws IllegalArgumentException when the registry carries a URL scheme or the result is not an
   *     image reference
   */
  public static String reference(String registry, String tag) {
    if (registry == null || registry.isBlank()) {
      return ImageReferences.require(tag, "image tag");
    }
    if (registry.contains("://")) {
      throw new IllegalArgumentException(
          "A registry is host[:port][/path], without a scheme: " + MessageText.literal(registry));
    }
    var trimmed = registry.endsWith("/") ? registry.substring(0, registry.length() - 1) : registry;
    return ImageReferences.require(trimmed + "/" + tag, "image reference");
  }

  private static String repositoryPart(String envName) {
    if (envName == null) {
      throw new IllegalArgumentException("An environment name is required for its image tag");
    }
    var ascii = Normalizer.normalize(envName, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    var slug =
        ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (slug.length() > MAX_NAME_LENGTH) {
      slug = slug.substring(0, MAX_NAME_LENGTH).replaceAll("-+$", "");
    }
    if (slug.isEmpty()) {
      throw new IllegalArgumentException(
          "Environment name " + MessageText.literal(envName) + " has no letter or digit for a tag");
    }
    return slug;
  }
}
