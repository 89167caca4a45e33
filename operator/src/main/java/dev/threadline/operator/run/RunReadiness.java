package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.status.Conditions;

/**
 * A Run's conditions, from its phase: Ready Unknown and Reconciling while it is pending or running,
 * Ready True once it completed, Ready False and Stalled once it failed, Ready False once it was
 * cancelled (the reason names the phase, the message the error). The run reconciler owns them; the
 * phase they follow may come from the worker.
 */
final class RunReadiness {
  private final Conditions conditions;

  RunReadiness(Conditions conditions) {
    this.conditions = conditions;
  }

  /**
   * What the conditions say for a phase: completed is ready; pending and running reconcile; failed
   * is stalled (a new message is a new run); cancelled is at rest, not ready.
   */
  static Conditions.Summary summary(RunStatus status) {
    RunPhase phase =
        status.getPhase() == null ? RunPhase.PENDING : RunPhase.fromValue(status.getPhase());
    String message = status.getError() == null ? null : status.getError().getMessage();
    String reason = capitalized(phase.value());
    return switch (phase) {
      case COMPLETED -> Conditions.Summary.ready(reason, message);
      case FAILED -> Conditions.Summary.stalled(reason, message);
      case CANCELLED -> Conditions.Summary.waiting(reason, message);
      case PENDING, RUNNING -> Conditions.Summary.reconciling(Conditions.UNKNOWN, reason, message);
    };
  }

  /** Whether the status's conditions already say what its phase calls for. */
  static boolean holds(RunStatus status) {
    return Conditions.holds(status.getConditions(), summary(status));
  }

  /** Sets the conditions on the status as its phase says; returns whether that changed them. */
  boolean apply(Run run, RunStatus status) {
    if (holds(status)) {
      return false;
    }
    status.setConditions(
        conditions.summarise(
            status.getConditions(), summary(status), run.getMetadata().getGeneration()));
    return true;
  }

  private static String capitalized(String value) {
    return Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }
}
