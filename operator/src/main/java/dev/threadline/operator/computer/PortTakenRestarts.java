package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cold sandboxes made again because their port was taken (docs/warm-pools.md): where Pods share the
 * host's network, another program may take a sandbox's port between its lease and its runner's
 * bind, and hold it past the runner's retries. The run's Pod is then deleted and made again on
 * another port, at most {@link #ATTEMPTS} times per run; only when every attempt meets a taken port
 * does the run fail (with the Pod's own words).
 *
 * <p>Kept in memory: an operator that restarts may try a run's {@link #ATTEMPTS} again, still a
 * bound. The Pod deleted for a taken port is remembered until the Pod informer drops it, so a
 * launch never adopts it as the run's.
 */
final class PortTakenRestarts {
  /** How many times one run's sandbox is made again on another port. */
  static final int ATTEMPTS = 5;

  private record Restarted(int times, String replacedPodUid) {}

  /** Run uid → its restarts so far. */
  private final Map<String, Restarted> restarts = new ConcurrentHashMap<>();

  /** Whether the run's sandbox may be made again once more. */
  boolean mayRestart(Run run) {
    Restarted restarted = restarts.get(run.getMetadata().getUid());
    return restarted == null || restarted.times() < ATTEMPTS;
  }

  /**
   * Notes that {@code pod} goes to be made again; returns which attempt the next one is (1-based
   * among the restarts).
   */
  int restarting(Run run, Pod pod) {
    return restarts
        .merge(
            run.getMetadata().getUid(),
            new Restarted(1, pod.getMetadata().getUid()),
            (before, now) -> new Restarted(before.times() + 1, now.replacedPodUid()))
        .times();
  }

  /** Whether {@code pod} is one deleted for its taken port (the informer may still hold it). */
  boolean replaced(Run run, Pod pod) {
    Restarted restarted = restarts.get(run.getMetadata().getUid());
    return restarted != null && pod.getMetadata().getUid().equals(restarted.replacedPodUid());
  }

  /** The run ended: nothing more to remember. */
  void forget(Run run) {
    restarts.remove(run.getMetadata().getUid());
  }
}
