package dev.threadline.api.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How long idempotency keys live; properties {@code threadline.idempotency.*}.
 *
 * @param ttl how long a key answers repeats with its first result (default 24 h)
 * @param inFlightLease how long a first request may stay in flight before its claim counts as
 *     abandoned (its server died) and a repeat may take the key over (default 2 min: the work
 *     behind a claim is a few Kubernetes writes)
 * @param sweepInterval how often expired records are deleted (default 1 h)
 */
@ConfigurationProperties("threadline.idempotency")
public record IdempotencySettings(Duration ttl, Duration inFlightLease, Duration sweepInterval) {
  public IdempotencySettings {
    ttl = ttl == null ? Duration.ofHours(24) : ttl;
    inFlightLease = inFlightLease == null ? Duration.ofMinutes(2) : inFlightLease;
    sweepInterval = sweepInterval == null ? Duration.ofHours(1) : sweepInterval;
  }
}
