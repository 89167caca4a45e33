package dev.threadline.api.edge;

import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Bounds at the HTTP edge, per api-server replica; properties {@code threadline.api.*}, i.e. the
 * environment variables {@code THREADLINE_API_<NAME>} with the name in capitals and without dashes
 * ({@code THREADLINE_API_BODYTIMEOUT}). A limit of 0 turns that cap off.
 *
 * @param readTimeout how long a connection may stay silent while a request's head or body is being
 *     read (default 20 s)
 * @param bodyTimeout how long receiving one request body may take in all, however it trickles
 *     (default 60 s: 10 MiB at 175 KB/s); then 408 and the connection closes
 * @param keepAliveTimeout how long an idle connection is kept open between requests (default 20 s)
 * @param maxKeepAliveRequests requests served on one connection before it is closed (default 1000)
 * @param maxHeaderSize the most bytes of a request line and headers (default 16 KiB); beyond, 400
 * @param maxRequestsPerKey requests of one API key in progress at once (default 32; streams not
 *     counted once they stream)
 * @param maxStreamsPerKey streams and {@code stream: false} waits of one API key open at once
 *     (default 16)
 * @param maxRequestsPerAddress requests from one client address in progress at once, with or
 *     without a key (default 64)
 * @param maxStreamsPerAddress streams and waits from one client address open at once (default 64)
 * @param trustedProxies a regular expression of the proxy addresses (an ingress controller) whose
 *     {@code X-Forwarded-For} names the client; empty (default): the peer address is the client
 */
@ConfigurationProperties("threadline.api")
public record EdgeSettings(
    Duration readTimeout,
    Duration bodyTimeout,
    Duration keepAliveTimeout,
    Integer maxKeepAliveRequests,
    DataSize maxHeaderSize,
    Integer maxRequestsPerKey,
    Integer maxStreamsPerKey,
    Integer maxRequestsPerAddress,
    Integer maxStreamsPerAddress,
    String trustedProxies) {

  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(20);
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(20);
  public static final int DEFAULT_MAX_KEEP_ALIVE_REQUESTS = 1000;
  public static final DataSize DEFAULT_MAX_HEADER_SIZE = DataSize.ofKilobytes(16);
  public static final int DEFAULT_MAX_REQUESTS_PER_KEY = 32;
  public static final int DEFAULT_MAX_STREAMS_PER_KEY = 16;
  public static final int DEFAULT_MAX_REQUESTS_PER_ADDRESS = 64;
  public static final int DEFAULT_MAX_STREAMS_PER_ADDRESS = 64;

  public EdgeSettings {
    readTimeout = positive(readTimeout, DEFAULT_READ_TIMEOUT, "read-timeout");
    bodyTimeout = positive(bodyTimeout, DEFAULT_BODY_TIMEOUT, "body-timeout");
    keepAliveTimeout = positive(keepAliveTimeout, DEFAULT_KEEP_ALIVE_TIMEOUT, "keep-alive-timeout");
    maxKeepAliveRequests =
        count(maxKeepAliveRequests, DEFAULT_MAX_KEEP_ALIVE_REQUESTS, "max-keep-alive-requests");
    maxHeaderSize = maxHeaderSize == null ? DEFAULT_MAX_HEADER_SIZE : maxHeaderSize;
    if (maxHeaderSize.toBytes() < 1024 || maxHeaderSize.toBytes() > 1024 * 1024) {
      throw new IllegalArgumentException(
          "threadline.api.max-header-size must be between 1KB and 1MB: " + maxHeaderSize);
    }
    maxRequestsPerKey =
        count(maxRequestsPerKey, DEFAULT_MAX_REQUESTS_PER_KEY, "max-requests-per-key");
    maxStreamsPerKey = count(maxStreamsPerKey, DEFAULT_MAX_STREAMS_PER_KEY, "max-streams-per-key");
    maxRequestsPerAddress =
        count(maxRequestsPerAddress, DEFAULT_MAX_REQUESTS_PER_ADDRESS, "max-requests-per-address");
    maxStreamsPerAddress =
        count(maxStreamsPerAddress, DEFAULT_MAX_STREAMS_PER_ADDRESS, "max-streams-per-address");
    trustedProxies = trustedProxies == null ? "" : trustedProxies.strip();
    if (!trustedProxies.isEmpty()) {
      try {
        Pattern.compile(trustedProxies);
      } catch (PatternSyntaxException malformed) {
        throw new IllegalArgumentException(
            "threadline.api.trusted-proxies must be a regular expression: "
                + malformed.getDescription());
      }
    }
  }

  /** Every default. */
  public static EdgeSettings defaults() {
    return new EdgeSettings(null, null, null, null, null, null, null, null, null, null);
  }

  private static Duration positive(Duration value, Duration fallback, String name) {
    if (value == null) {
      return fallback;
    }
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException("threadline.api." + name + " must be positive: " + value);
    }
    return value;
  }

  private static int count(Integer value, int fallback, String name) {
    if (value == null) {
      return fallback;
    }
    if (value < 0) {
      throw new IllegalArgumentException(
          "threadline.api." + name + " must be 0 (no cap) or more: " + value);
    }
    return value;
  }
}
