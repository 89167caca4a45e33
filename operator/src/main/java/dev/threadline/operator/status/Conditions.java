package dev.threadline.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Standard conditions, keyed by type: setting one replaces the condition of that type, and keeps
 * its {@code lastTransitionTime} while its status does not change (as cert-manager does).
 */
public final class Conditions {
  public static final String READY = "Ready";
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  /** The Ready reason when a reconcile failed ({@code updateErrorStatus}); the message says why. */
  public static final String RECONCILE_ERROR = "ReconcileError";

  private final Clock clock;

  public Conditions(Clock clock) {
    this.clock = clock;
  }

  /** Returns a new list with the condition of {@code type} set. */
  public List<Condition> set(
      List<Condition> current,
      String type,
      String status,
      String reason,
      String message,
      Long observedGeneration) {
    Optional<Condition> previous = find(current, type);
    String transition =
        previous
            .filter(c -> Objects.equals(c.getStatus(), status))
            .map(Condition::getLastTransitionTime)
            .orElseGet(this::now);
    Condition next =
        new ConditionBuilder()
            .withType(type)
            .withStatus(status)
            .withReason(reason)
            .withMessage(message)
            .withObservedGeneration(observedGeneration)
            .withLastTransitionTime(transition)
            .build();
    List<Condition> result = new ArrayList<>();
    boolean replaced = false;
    for (Condition condition : current == null ? List.<Condition>of() : current) {
      if (type.equals(condition.getType())) {
        if (!replaced) {
          result.add(next);
          replaced = true;
        }
      } else {
        result.add(condition);
      }
    }
    if (!replaced) {
      result.add(next);
    }
    return result;
  }

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  private String now() {
    // RFC 3339 with second precision, as Kubernetes writes metav1.Time.
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now(clock).truncatedTo(ChronoUnit.SECONDS));
  }
}
