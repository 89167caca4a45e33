package dev.threadline.api.ratelimit;

/** A token bucket: up to {@code burst} requests at once, refilled at {@code perMinute} a minute. */
record RateLimit(long burst, long perMinute) {
  RateLimit {
    if (burst < 1 || perMinute < 1) {
      throw new IllegalArgumentException(
          "a rate limit needs a burst and a rate of at least 1, got " + burst + "/" + perMinute);
    }
  }

  /** {@code <burst>/<per minute>}, as an API key Secret's {@code rateLimit} holds it. */
  static RateLimit parse(String text) {
    String[] parts = text.strip().split("/", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "a rate limit looks like <burst>/<per minute>, e.g. 20/60: " + text);
    }
    try {
      return new RateLimit(Long.parseLong(parts[0].strip()), Long.parseLong(parts[1].strip()));
    } catch (NumberFormatException notNumbers) {
      throw new IllegalArgumentException(
          "a rate limit looks like <burst>/<per minute>, e.g. 20/60: " + text);
    }
  }
}
