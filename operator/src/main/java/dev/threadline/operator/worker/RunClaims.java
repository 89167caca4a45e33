package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.kubernetes.TokenCloner;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which worker replica works on a Run: a claim in the Run's annotations (holder and expiry), taken
 * and renewed by updates that name the resourceVersion read, so two replicas never both win. A
 * claim that is not renewed expires; then any replica may take it.
 */
public final class RunClaims {
  static final String HOLDER = "threadline.dev/worker";
  static final String EXPIRES = "threadline.dev/worker-expires";
  private static final int RENEW_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final String holder;
  private final Duration ttl;
  private final Clock clock;

  RunClaims(KubernetesClient client, String holder, Duration ttl, Clock clock) {
    this.client = client;
    this.holder = holder;
    this.ttl = ttl;
    this.clock = clock;
  }

  String holder() {
    return holder;
  }

  /** When the Run's claim, held by any replica, expires; empty when it has none or it expired. */
  public static Optional<Instant> liveUntil(Run run, Instant now) {
    Map<String, String> annotations = annotations(run);
    return annotations.containsKey(HOLDER)
        ? expiry(annotations).filter(at -> at.isAfter(now))
        : Optional.empty();
  }

  /** Whether another replica holds a claim on the Run that has not expired. */
  boolean heldByAnother(Run run) {
    Map<String, String> annotations = annotations(run);
    String current = annotations.get(HOLDER);
    return current != null
        && !current.equals(holder)
        && expiry(annotations).filter(at -> at.isAfter(clock.instant())).isPresent();
  }

  /** When the Run's claim expires; empty when it has none. */
  Optional<Instant> expiry(Run run) {
    return annotations(run).containsKey(HOLDER) ? expiry(annotations(run)) : Optional.empty();
  }

  /** Takes the Run's claim over the version read; empty when another replica got there first. */
  Optional<Run> take(Run run) {
    if (heldByAnother(run)) {
      return Optional.empty();
    }
    try {
      return Optional.of(write(run, clock.instant().plus(ttl)));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409 || e.getCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Moves this replica's claim's expiry on; false when the claim is no longer this replica's. */
  boolean renew(String namespace, String name) {
    for (int attempt = 1; attempt <= RENEW_ATTEMPTS; attempt++) {
      Run run = client.resources(Run.class).inNamespace(namespace).withName(name).get();
      if (run == null || !holder.equals(annotations(run).get(HOLDER))) {
        return false;
      }
      try {
        write(run, clock.instant().plus(ttl));
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
    return false;
  }

  /** Gives the claim up (the loop ended), so no replica waits for it to expire. */
  void release(String namespace, String name) {
    for (int attempt = 1; attempt <= RENEW_ATTEMPTS; attempt++) {
      Run run = client.resources(Run.class).inNamespace(namespace).withName(name).get();
      if (run == null || !holder.equals(annotations(run).get(HOLDER))) {
        return;
      }
      Run next = TokenCloner.copy(client, run);
      Map<String, String> annotations = new HashMap<>(annotations(next));
      annotations.remove(HOLDER);
      annotations.remove(EXPIRES);
      next.getMetadata().setAnnotations(annotations);
      try {
        client.resource(next).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
  }

  private Run write(Run run, Instant expires) {
    Run next = TokenCloner.copy(client, run);
    Map<String, String> annotations = new HashMap<>(annotations(next));
    annotations.put(HOLDER, holder);
    annotations.put(EXPIRES, expires.toString());
    next.getMetadata().setAnnotations(annotations);
    return client.resource(next).update(); // carries the resourceVersion read: 409 if it moved
  }

  private static Map<String, String> annotations(Run run) {
    return Objects.requireNonNullElse(run.getMetadata().getAnnotations(), Map.of());
  }

  private static Optional<Instant> expiry(Map<String, String> annotations) {
    try {
      return Optional.ofNullable(annotations.get(EXPIRES)).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.of(Instant.EPOCH); // unreadable: treated as expired
    }
  }
}
