package dev.threadline.operator.worker;

import java.time.Duration;
import java.util.Objects;

/**
 * One worker replica's settings.
 *
 * @param holder this replica's name in the claims it takes (its Pod name: unique among replicas)
 * @param claimTtl how long a claim lives without renewal: a stopped replica's runs go on elsewhere
 *     after at most this long; it is renewed every third of it
 * @param namespace the namespace to work in, or null for all
 */
public record WorkerSettings(String holder, Duration claimTtl, String namespace) {
  public static final Duration DEFAULT_CLAIM_TTL = Duration.ofSeconds(10);

  public WorkerSettings {
    Objects.requireNonNull(holder, "holder");
    claimTtl = claimTtl == null ? DEFAULT_CLAIM_TTL : claimTtl;
  }

  Duration renewEvery() {
    return claimTtl.dividedBy(3);
  }
}
