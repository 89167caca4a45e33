package dev.threadline.api.stream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How streams and waiting requests behave; properties {@code threadline.stream.*} (environment
 * variables {@code THREADLINE_STREAM_KEEPALIVEINTERVAL}, {@code THREADLINE_STREAM_MAXWAIT}).
 *
 * @param keepaliveInterval how long a stream may stay silent before a {@code : keepalive} comment,
 *     so proxies keep the connection open (default 15 s)
 * @param maxWait how long a stream or a {@code stream: false} request follows a run before it gives
 *     up (the run itself goes on; default 15 min)
 */
@ConfigurationProperties("threadline.stream")
public record StreamSettings(Duration keepaliveInterval, Duration maxWait) {
  public static final Duration DEFAULT_KEEPALIVE_INTERVAL = Duration.ofSeconds(15);
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(15);

  public StreamSettings {
    keepaliveInterval =
        positiveOr(keepaliveInterval, DEFAULT_KEEPALIVE_INTERVAL, "keepaliveInterval");
    maxWait = positiveOr(maxWait, DEFAULT_MAX_WAIT, "maxWait");
  }

  private static Duration positiveOr(Duration value, Duration fallback, String name) {
    if (value == null) {
      return fallback;
    }
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(
          "threadline.stream." + name + " must be positive: " + value);
    }
    return value;
  }
}
