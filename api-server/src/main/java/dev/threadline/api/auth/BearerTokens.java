package dev.threadline.api.auth;

import java.util.Optional;

/** Reads the token out of an {@code Authorization: Bearer <token>} header. */
final class BearerTokens {
  /** Far longer than any key we issue; bounds the work spent hashing junk. */
  static final int MAX_TOKEN_LENGTH = 512;

  private static final String SCHEME = "Bearer";

  private BearerTokens() {}

  /** The token, or empty for a missing header, another scheme, or a malformed token. */
  static Optional<String> parse(String header) {
    if (header == null) {
      return Optional.empty();
    }
    String value = header.strip();
    if (value.length() <= SCHEME.length()
        || !value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return Optional.empty();
    }
    if (!Character.isWhitespace(value.charAt(SCHEME.length()))) {
      return Optional.empty();
    }
    String token = value.substring(SCHEME.length()).strip();
    if (token.isEmpty()
        || token.length() > MAX_TOKEN_LENGTH
        || token.chars().anyMatch(Character::isWhitespace)) {
      return Optional.empty();
    }
    return Optional.of(token);
  }
}
