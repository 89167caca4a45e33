package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Run's Ready condition, from its phase: Unknown while it is pending or running, True once it
 * completed, False once it failed or was cancelled (the reason names the phase, the message the
 * error). The run reconciler owns it; the phase it follows may come from the worker.
 */
final class RunReadiness {
  private final Conditions conditions;

  RunReadiness(Conditions conditions) {
    this.conditions = conditions;
  }

  /** Sets the Ready condition on the status as its phase says; returns whether that changed it. */
  boolean apply(Run run, RunStatus status) {
    RunPhase phase =
        status.getPhase() == null ? RunPhase.PENDING : RunPhase.fromValue(status.getPhase());
    String ready =
        switch (phase) {
          case COMPLETED -> Conditions.TRUE;
          case FAILED, CANCELLED -> Conditions.FALSE;
          case PENDING, RUNNING -> Conditions.UNKNOWN;
        };
    String reason = capitalized(phase.value());
    String message = status.getError() == null ? null : status.getError().getMessage();
    Optional<Condition> current = Conditions.find(status.getConditions(), Conditions.READY);
    if (current.isPresent()
        && Objects.equals(current.get().getStatus(), ready)
        && Objects.equals(current.get().getReason(), reason)
        && Objects.equals(current.get().getMessage(), message)) {
      return false;
    }
    List<Condition> next =
        conditions.set(
            status.getConditions(),
            Conditions.READY,
            ready,
            reason,
            message,
            run.getMetadata().getGeneration());
    status.setConditions(next);
    return true;
  }

  private static String capitalized(String value) {
    return Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }
}
