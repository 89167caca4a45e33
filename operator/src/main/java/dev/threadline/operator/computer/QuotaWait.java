package dev.threadline.operator.computer;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Optional;

/**
 * A tenant namespace's ResourceQuota refusing an agent's objects (its Pod, its workspace claim) or
 * a container's Pod: the run or container waits for room instead of failing, re-trying sooner at
 * first and less often the longer it waits (a run until its deadline, a container until it
 * expires). Room appears when another Pod goes, which is not the waiter's event: hence retries.
 */
public final class QuotaWait {
  static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

  private QuotaWait() {}

  /** The API server's refusal when it is a quota's (403 "exceeded quota"), else empty. */
  public static Optional<String> refusal(KubernetesClientException e) {
    String message = e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage();
    return e.getCode() == 403 && message != null && message.contains("exceeded quota")
        ? Optional.of(message)
        : Optional.empty();
  }

  /** When to try again after waiting {@code waited}: a quarter of it, from 1 s up to 30 s. */
  public static Duration nextRetry(Duration waited) {
    Duration quarter = waited.dividedBy(4);
    if (quarter.compareTo(FIRST_RETRY) < 0) {
      return FIRST_RETRY;
    }
    return quarter.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : quarter;
  }
}
