package dev.threadline.core.network;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * A user-given {@code http}/{@code https} URL read the one way every client reads it, before any
 * name is looked up. Forms that programs read differently are refused rather than guessed at: an
 * IPv4 address must be four decimal numbers without leading zeros ({@code 0177.0.0.1} is 127.0.0.1
 * to curl and browsers but 177.0.0.1 to Java; {@code 0x7f.1}, {@code 127.1} and {@code 2130706433}
 * are 127.0.0.1 to some and names to others); user info ({@code user:pass@}), IPv6 zone ids,
 * percent-encoded hosts and ports outside 1-65535 are refused too.
 *
 * @param host the host as written, lower-cased (an IPv6 literal without its brackets)
 * @param port the port, or the scheme's default
 * @param literal the address when the host is an IP literal; empty for a name
 */
public record TargetUrl(URI uri, String host, int port, Optional<InetAddress> literal) {
  public static final int MAX_LENGTH = 2048;
  private static final int MAX_NAME = 253;
  private static final int MAX_LABEL = 63;
  private static final String NOT_A_URL = "must be an absolute http:// or https:// URL with a host";

  /**
   * @throws InvalidTargetException saying what is wrong, as the end of a sentence about the field
   */
  public static TargetUrl parse(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidTargetException("is required");
    }
    if (text.length() > MAX_LENGTH) {
      throw new InvalidTargetException("must be at most " + MAX_LENGTH + " characters");
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException notAUri) {
      throw new InvalidTargetException(NOT_A_URL);
    }
    String scheme = uri.getScheme();
    String authority = uri.getRawAuthority();
    if (!("http".equals(scheme) || "https".equals(scheme))
        || authority == null
        || uri.isOpaque()
        || text.chars().anyMatch(Character::isWhitespace)) {
      throw new InvalidTargetException(NOT_A_URL);
    }
    if (authority.indexOf('@') >= 0) {
      throw new InvalidTargetException("must not carry a user name or password (user:pass@)");
    }
    int defaultPort = "https".equals(scheme) ? 443 : 80;
    String hostText;
    String portText;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw new InvalidTargetException(NOT_A_URL);
      }
      hostText = authority.substring(0, close + 1);
      String rest = authority.substring(close + 1);
      if (!rest.isEmpty() && !rest.startsWith(":")) {
        throw new InvalidTargetException(NOT_A_URL);
      }
      portText = rest.isEmpty() ? "" : rest.substring(1);
    } else {
      int colon = authority.indexOf(':');
      hostText = colon < 0 ? authority : authority.substring(0, colon);
      portText = colon < 0 ? "" : authority.substring(colon + 1);
    }
    int port = port(portText, defaultPort);
    String host = hostText.toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      String inner = host.substring(1, host.length() - 1);
      return new TargetUrl(uri, inner, port, Optional.of(ipv6(inner)));
    }
    if (host.isEmpty()) {
      throw new InvalidTargetException(NOT_A_URL);
    }
    Optional<InetAddress> ipv4 = ipv4(host);
    if (ipv4.isEmpty()) {
      requireName(host);
    }
    return new TargetUrl(uri, host, port, ipv4);
  }

  /**
   * The address of a host as written in a URL when it is an IP literal ({@code 10.0.0.1}, {@code
   * [::1]} or {@code ::1}); empty for a name.
   *
   * @throws InvalidTargetException for a form that is read differently by different programs
   */
  public static Optional<InetAddress> literalOf(String host) {
    String lower = host.toLowerCase(Locale.ROOT);
    if (lower.startsWith("[") && lower.endsWith("]")) {
      return Optional.of(ipv6(lower.substring(1, lower.length() - 1)));
    }
    if (lower.indexOf(':') >= 0) {
      return Optional.of(ipv6(lower));
    }
    return ipv4(lower);
  }

  /** {@code localhost} and {@code *.localhost} name this machine's loopback (RFC 6761). */
  public boolean namesLoopback() {
    String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    return literal.isEmpty() && (name.equals("localhost") || name.endsWith(".localhost"));
  }

  private static int port(String text, int defaultPort) {
    if (text.isEmpty()) {
      return defaultPort;
    }
    if (text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidTargetException("must have a port between 1 and 65535");
    }
    int port = Integer.parseInt(text);
    if (port < 1 || port > 65535) {
      throw new InvalidTargetException("must have a port between 1 and 65535");
    }
    return port;
  }

  /**
   * A host whose last label is a number (decimal or {@code 0x} hex) is an IPv4 address to URL
   * parsers (WHATWG's "ends in a number"): it must then be the one unambiguous form.
   */
  private static Optional<InetAddress> ipv4(String host) {
    String trimmed = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    String last = trimmed.substring(trimmed.lastIndexOf('.') + 1);
    boolean number =
        !last.isEmpty()
            && (last.chars().allMatch(c -> c >= '0' && c <= '9')
                || (last.startsWith("0x") && last.substring(2).chars().allMatch(TargetUrl::isHex)));
    if (!number) {
      return Optional.empty();
    }
    byte[] bytes = dottedQuad(host);
    if (bytes == null) {
      throw new InvalidTargetException(
          "must write an IPv4 address as four decimal numbers 0-255 without leading zeros"
              + " (a.b.c.d): "
              + host
              + " is read as different addresses by different programs");
    }
    return Optional.of(address(bytes));
  }

  /** Four decimal numbers 0-255, no leading zeros, nothing else; null otherwise. */
  private static byte[] dottedQuad(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      String part = parts[i];
      if (part.isEmpty()
          || part.length() > 3
          || (part.length() > 1 && part.charAt(0) == '0')
          || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int value = Integer.parseInt(part);
      if (value > 255) {
        return null;
      }
      bytes[i] = (byte) value;
    }
    return bytes;
  }

  private static InetAddress ipv6(String text) {
    if (text.indexOf('%') >= 0) {
      throw new InvalidTargetException("must not name an IPv6 zone (%)");
    }
    if (text.isEmpty() || !text.chars().allMatch(c -> isHex(c) || c == ':' || c == '.')) {
      throw new InvalidTargetException("must have a valid IPv6 address in brackets");
    }
    int dot = text.indexOf('.');
    if (dot >= 0 && dottedQuad(text.substring(text.lastIndexOf(':') + 1)) == null) {
      throw new InvalidTargetException(
          "must write the IPv4 part of an IPv6 address as four decimal numbers 0-255 without"
              + " leading zeros");
    }
    try {
      // A bracketed literal is parsed, never looked up.
      return InetAddress.getByName("[" + text + "]");
    } catch (UnknownHostException malformed) {
      throw new InvalidTargetException("must have a valid IPv6 address in brackets");
    }
  }

  /** Letters, digits, hyphens and underscores in dot-separated labels of at most 63 characters. */
  private static void requireName(String host) {
    String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (name.isEmpty() || name.length() > MAX_NAME) {
      throw new InvalidTargetException(
          "must have a host name of at most " + MAX_NAME + " characters");
    }
    for (String label : name.split("\\.", -1)) {
      boolean valid =
          !label.isEmpty()
              && label.length() <= MAX_LABEL
              && label
                  .chars()
                  .allMatch(c ->
                      (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_');
      if (!valid) {
        throw new InvalidTargetException(
            "must have a host name of letters, digits, '-' and '_' in dot-separated labels"
                + " (international names in their xn-- form)");
      }
    }
  }

  private static InetAddress address(byte[] bytes) {
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  private static boolean isHex(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  }
}
