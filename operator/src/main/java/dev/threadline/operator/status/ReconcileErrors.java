package dev.threadline.operator.status;

import dev.threadline.crds.common.ResourceStatus;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import java.util.function.Supplier;

/**
 * What every controller's {@code updateErrorStatus} does: a reconcile that failed (and is retried
 * by the framework) shows as Ready=False with reason {@value Conditions#RECONCILE_ERROR} and the
 * error's message, patched through the framework; the next good reconcile sets Ready again.
 */
public final class ReconcileErrors {
  private ReconcileErrors() {}

  /**
   * @param fresh a new status, for a resource that never had one
   */
  public static <S extends ResourceStatus, R extends CustomResource<?, S>>
      ErrorStatusUpdateControl<R> readyFalse(
          Conditions conditions, R resource, Supplier<S> fresh, Exception error) {
    S status = resource.getStatus() == null ? fresh.get() : resource.getStatus();
    // Retried by the framework with a back-off: still on its way, not stalled.
    status.setConditions(
        conditions.summarise(
            status.getConditions(),
            Conditions.Summary.reconciling(
                Conditions.FALSE, Conditions.RECONCILE_ERROR, message(error)),
            resource.getMetadata().getGeneration()));
    resource.setStatus(status);
    return ErrorStatusUpdateControl.patchStatus(resource);
  }

  /** The innermost message: the framework wraps what a dependent or the API threw. */
  static String message(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
  }
}
