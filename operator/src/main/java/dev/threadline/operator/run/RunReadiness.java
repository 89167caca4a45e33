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

  /** What the Ready condition says for a phase. */
  private record Readiness(String status, String reason, String message) {
    static Readiness of(RunStatus status) {
      RunPhase phase =
          status.getPhase() == null ? RunPhase.PENDING : RunPhase.fromValue(status.getPhase());
      String ready =
          switch (phase) {
            case COMPLETED -> Conditions.TRUE;
            case FAILED, CANCELLED -> Conditions.FALSE;
            case PENDING, RUNNING -> Conditions.UNKNOWN;
          };
      String message = status.getError() == null ? null : status.getError().getMessage();
      return new Readiness(ready, capitalized(phase.value()), message);
    }
  }

  /** Whether the status's Ready condition already says what its phase calls for. */
  static boolean holds(RunStatus status) {
    Readiness wanted = Readiness.of(status);
    Optional<Condition> current = Conditions.find(status.getConditions(), Conditions.READY);
    return current.isPresent()
        && Objects.equals(current.get().getStatus(), wanted.status())
        && Objects.equals(current.get().getReason(), wanted.reason())
        && Objects.equals(current.get().getMessage(), wanted.message());
  }

  /** Sets the Ready condition on the status as its phase says; returns whether that changed it. */
  boolean apply(Run run, RunStatus status) {
    if (holds(status)) {
      return false;
    }
    Readiness wanted = Readiness.of(status);
    List<Condition> next =
        conditions.set(
            status.getConditions(),
            Conditions.READY,
            wanted.status(),
            wanted.reason(),
            wanted.message(),
            run.getMetadata().getGeneration());
    status.setConditions(next);
    return true;
  }

  private static String capitalized(String value) {
    return Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }
}
