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
 *
 * <p>Every kind's status is summarised for kstatus (Flux, {@code kubectl wait}, Argo CD's health
 * checks, see the chart's README) by {@link #summarise}: {@code Ready}, plus the abnormal-true
 * conditions {@code Reconciling} (the operator is still working towards the spec) and {@code
 * Stalled} (it cannot get there without a change), present only while they are true.
 */
public final class Conditions {
  public static final String READY = "Ready";
  public static final String RECONCILING = "Reconciling";
  public static final String STALLED = "Stalled";
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

  /** Where a resource stands, as kstatus reads it. */
  public enum Progress {
    /** At rest: Ready says all (True, or False while it waits for the user). */
    SETTLED,
    /** Reconciling=True: the operator works towards the spec. */
    RECONCILING,
    /** Stalled=True: the spec cannot be reached until something changes. */
    STALLED
  }

  /**
   * A resource's summary: its Ready condition ({@code ready} True, False or Unknown, with its
   * reason and message) and where it stands; the Reconciling or Stalled condition carries the same
   * reason and message while it applies.
   */
  public record Summary(String ready, String reason, String message, Progress progress) {
    public static Summary ready(String reason, String message) {
      return new Summary(TRUE, reason, message, Progress.SETTLED);
    }

    public static Summary waiting(String reason, String message) {
      return new Summary(FALSE, reason, message, Progress.SETTLED);
    }

    public static Summary reconciling(String ready, String reason, String message) {
      return new Summary(ready, reason, message, Progress.RECONCILING);
    }

    public static Summary stalled(String reason, String message) {
      return new Summary(FALSE, reason, message, Progress.STALLED);
    }
  }

  /**
   * Returns a new list with Ready set as {@code summary} says, Reconciling or Stalled set while
   * they apply and removed otherwise; other conditions are kept.
   */
  public List<Condition> summarise(
      List<Condition> current, Summary summary, Long observedGeneration) {
    List<Condition> next =
        set(
            current,
            READY,
            summary.ready(),
            summary.reason(),
            summary.message(),
            observedGeneration);
    for (String type : List.of(RECONCILING, STALLED)) {
      boolean applies =
          type.equals(RECONCILING)
              ? summary.progress() == Progress.RECONCILING
              : summary.progress() == Progress.STALLED;
      next =
          applies
              ? set(next, type, TRUE, summary.reason(), summary.message(), observedGeneration)
              : without(next, type);
    }
    return next;
  }

  /**
   * Whether {@code current} says what {@code summary} does (statuses, reasons and messages; times
   * and generations aside).
   */
  public static boolean holds(List<Condition> current, Summary summary) {
    Optional<Condition> ready = find(current, READY);
    if (ready.isEmpty()
        || !Objects.equals(ready.get().getStatus(), summary.ready())
        || !Objects.equals(ready.get().getReason(), summary.reason())
        || !Objects.equals(ready.get().getMessage(), summary.message())) {
      return false;
    }
    return find(current, RECONCILING).isPresent() == (summary.progress() == Progress.RECONCILING)
        && find(current, STALLED).isPresent() == (summary.progress() == Progress.STALLED);
  }

  /** Returns a new list without the condition of {@code type}. */
  public static List<Condition> without(List<Condition> current, String type) {
    List<Condition> result = new ArrayList<>();
    for (Condition condition : current == null ? List.<Condition>of() : current) {
      if (!type.equals(condition.getType())) {
        result.add(condition);
      }
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
