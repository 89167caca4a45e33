package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The Run controller's writes of a computer Run's status — its routing and its sandbox ({@code
 * pod}, {@code start}, {@link SandboxCondition}), never its outcome, which is the worker's
 * (docs/operator-status.md) — with optimistic locking. The change is a function of the status it is
 * applied to: on a conflict (another writer — a second operator, or the cache was behind) the Run
 * is read again and the change re-applied to what is really there (events are in the history store,
 * whose keys record each once). The written Run goes into the controller's cache at once, so the
 * next reconcile starts from it.
 */
final class RunStatusWriter {
  private static final int ATTEMPTS = 5;

  private final KubernetesClient client;

  RunStatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /**
   * @param change edits the status in place; returns false when there is nothing to write
   * @return the Run as written, or empty when nothing was written
   */
  Optional<Run> write(Run run, Context<Run> context, Predicate<RunStatus> change) {
    StatusWriteLoop.Outcome<Run> outcome =
        StatusWriteLoop.write(
            client,
            run,
            ATTEMPTS,
            code -> code == 409,
            () ->
                client
                    .resources(Run.class)
                    .inNamespace(run.getMetadata().getNamespace())
                    .withName(run.getMetadata().getName())
                    .get(),
            next -> {
              RunStatus status = next.getStatus() == null ? new RunStatus() : next.getStatus();
              next.setStatus(status);
              return change.test(status);
            });
    if (outcome instanceof StatusWriteLoop.Written<Run>(Run written, Run base)) {
      context
          .eventSourceRetriever()
          .getControllerEventSource()
          .handleRecentResourceUpdate(ResourceID.fromResource(written), written, base);
      return Optional.of(written);
    }
    return Optional.empty(); // nothing to write, or deleted meanwhile: nothing left to record
  }
}
