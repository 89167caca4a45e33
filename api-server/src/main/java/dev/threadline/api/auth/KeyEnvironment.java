package dev.threadline.api.auth;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deployment environment a key is for, read from its shape {@code <prefix>_<env>_<id>} with
 * {@code <env>} one of {@code dev}, {@code test}, {@code prod}. Keys of the older shape {@code
 * <prefix>_<id>} name no environment and are accepted everywhere.
 */
final class KeyEnvironment {
  private static final Pattern SHAPE =
      Pattern.compile("^[A-Za-z0-9]+_(dev|test|prod)_[A-Za-z0-9]+$");

  private KeyEnvironment() {}

  static Optional<String> of(String key) {
    Matcher matcher = SHAPE.matcher(key);
    return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  /** Normalises a configured environment: blank means none (accept every key). */
  static Optional<String> configured(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String env = value.strip().toLowerCase(Locale.ROOT);
    if (!env.equals("dev") && !env.equals("test") && !env.equals("prod")) {
      throw new IllegalArgumentException(
          "THREADLINE_DEPLOYMENT_ENV must be dev, test or prod: " + value);
    }
    return Optional.of(env);
  }
}
