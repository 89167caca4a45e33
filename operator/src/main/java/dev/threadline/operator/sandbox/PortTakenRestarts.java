package dev.threadline.operator.sandbox;

import dev.threadline.core.containers.SandboxExit;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sandboxes made again because their port was taken (docs/warm-pools.md), for a run's cold sandbox
 * and a container's Pod alike: where Pods share the host's network, another program may take a
 * sandbox's port between its lease and its runner's bind, and hold it past the runner's retries
 * (the runner then exits {@link SandboxExit#PORT_TAKEN}, {@link SandboxPod#portTaken}). The Pod is
 * then deleted and made again on another port, at most {@link #ATTEMPTS} times per owner; only when
 * every attempt meets a taken port does the owner fail (with the Pod's own words).
 *
 * <p>Kept in memory: an operator that restarts may try an owner's {@link #ATTEMPTS} again, still a
 * bound. The Pod deleted for a taken port is remembered until the owner is forgotten, so that it is
 * never taken for the owner's sandbox while the informer still holds it.
 */
public final class PortTakenRestarts {
  private static final Logger LOG = LoggerFactory.getLogger(PortTakenRestarts.class);

  /** How many times one owner's sandbox is made again on another port. */
  public static final int ATTEMPTS = 5;

  /** The Event of a sandbox made again on another port. */
  public static final String EVENT = "SandboxPortTaken";

  private record Restarted(int times, String replacedPodUid) {}

  private final SandboxPorts ports;
  private final String domain;

  /** Owner uid → its restarts so far. */
  private final Map<String, Restarted> restarts = new ConcurrentHashMap<>();

  /** For the sandboxes of {@code domain} of {@link SandboxPorts}. */
  public PortTakenRestarts(SandboxPorts ports, String domain) {
    this.ports = ports;
    this.domain = domain;
  }

  /**
   * Whether {@code owner}'s sandbox Pod {@code pod} never listened, its port taken, and may be made
   * again.
   */
  public boolean shouldRestart(HasMetadata owner, Pod pod) {
    if (!SandboxPod.portTaken(pod) || replaced(owner, pod)) {
      return false;
    }
    Restarted restarted = restarts.get(owner.getMetadata().getUid());
    return restarted == null || restarted.times() < ATTEMPTS;
  }

  /**
   * Makes {@code owner}'s sandbox again on another port: no sandbox gets the taken port for a
   * while, an Event says so, {@code recordStatus} writes the owner's status (given the Event's
   * message), and the Pod is deleted — the status first, so that the next reconcile makes the
   * sandbox again rather than finding its Pod gone.
   */
  public void restart(
      KubernetesClient client,
      KubernetesEvents events,
      HasMetadata owner,
      Pod pod,
      Consumer<String> recordStatus) {
    int attempt =
        restarts
            .merge(
                owner.getMetadata().getUid(),
                new Restarted(1, pod.getMetadata().getUid()),
                (before, now) -> new Restarted(before.times() + 1, now.replacedPodUid()))
            .times();
    String name = pod.getMetadata().getName();
    ports.takenByAnother(domain, pod.getMetadata().getNamespace() + "/" + name);
    String message =
        "Port "
            + SandboxPod.port(pod).map(String::valueOf).orElse("?")
            + " of sandbox Pod "
            + name
            + " was taken by another program: starting the sandbox again on another port ("
            + attempt
            + " of "
            + ATTEMPTS
            + ")";
    try (ResourceLogContext logged = ResourceLogContext.of(owner)) {
      LOG.info("{}", message);
    }
    events.warning(client, owner, EVENT, message);
    recordStatus.accept(message);
    client.resource(pod).withGracePeriod(0).delete();
  }

  /** Whether {@code pod} is one deleted for its taken port (the informer may still hold it). */
  public boolean replaced(HasMetadata owner, Pod pod) {
    Restarted restarted = restarts.get(owner.getMetadata().getUid());
    return restarted != null && pod.getMetadata().getUid().equals(restarted.replacedPodUid());
  }

  /** The owner ended or went: nothing more to remember. */
  public void forget(HasMetadata owner) {
    restarts.remove(owner.getMetadata().getUid());
  }
}
