package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Predicate;

/**
 * The worker's status writes: the change is applied to the latest Run and re-applied after a
 * conflict; a Run that has ended (cancelled, stopped for usage, finished by another writer) is
 * never changed again.
 */
final class RunStatusUpdates {
  private static final int ATTEMPTS = 10;

  private RunStatusUpdates() {}

  /**
   * @return whether the change was written
   */
  static boolean write(
      KubernetesClient client, String namespace, String name, Predicate<RunStatus> change) {
    Run current = read(client, namespace, name);
    if (current == null) {
      return false;
    }
    return write(client, current, change) instanceof StatusWriteLoop.Written<Run>;
  }

  /**
   * The same, from {@code known} without reading the Run first: a writer that keeps the Run it
   * wrote last (the run's event sink) saves a read per write; a stale one meets a conflict and
   * reads then.
   */
  static StatusWriteLoop.Outcome<Run> write(
      KubernetesClient client, Run known, Predicate<RunStatus> change) {
    String namespace = known.getMetadata().getNamespace();
    String name = known.getMetadata().getName();
    return StatusWriteLoop.write(
        client,
        known,
        ATTEMPTS,
        code -> code == 409,
        () -> read(client, namespace, name),
        next -> {
          RunStatus status = next.getStatus();
          return status != null && !ended(status) && change.test(status);
        });
  }

  static boolean ended(RunStatus status) {
    return status.getPhase() != null && RunPhase.fromValue(status.getPhase()).isTerminal();
  }

  private static Run read(KubernetesClient client, String namespace, String name) {
    return client.resources(Run.class).inNamespace(namespace).withName(name).get();
  }
}
