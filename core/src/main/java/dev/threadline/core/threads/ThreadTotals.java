package dev.threadline.core.threads;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ThreadState;
import dev.threadline.crds.usage.TokenCounts;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's state and totals, derived from its runs alone, so that recomputing is always safe:
 * each run counts its user message, and its assistant answer once it has one.
 */
public record ThreadTotals(
    ThreadState state, String activeRun, long messageCount, TokenCounts tokens, double totalCost) {

  public static ThreadTotals of(Collection<Run> runs) {
    long messages = 0;
    TokenCounts tokens = TokenCounts.zero();
    BigDecimal cost = BigDecimal.ZERO;
    for (Run run : runs) {
      RunStatus status = run.getStatus();
      messages += 1;
      if (status == null) {
        continue;
      }
      if (RunPhase.of(run) == RunPhase.COMPLETED && status.getResponse() != null) {
        messages += 1;
      }
      tokens = tokens.plus(status.getUsage());
      if (status.getCost() != null) {
        cost = cost.add(BigDecimal.valueOf(status.getCost()));
      }
    }
    Optional<Run> latest =
        runs.stream()
            .max(
                Comparator.comparingLong(
                        (Run run) -> Objects.requireNonNullElse(run.getSpec().getSequence(), 0L))
                    .thenComparing(
                        run -> run.getMetadata().getCreationTimestamp(),
                        Comparator.nullsFirst(Comparator.naturalOrder())));
    ThreadState state = latest.map(ThreadTotals::stateAfter).orElse(ThreadState.ACTIVE);
    String active =
        latest
            .filter(run -> !RunPhase.of(run).isTerminal())
            .map(run -> run.getMetadata().getName())
            .orElse(null);
    return new ThreadTotals(state, active, messages, tokens, cost.doubleValue());
  }

  /**
   * Whether a change of a run can change its thread's totals: {@link #of} reads only its phase,
   * whether it has an answer, its usage, cost and sequence. A run's other changes (its route, its
   * events as they stream, the usage and webhook marks) leave them as they were.
   */
  public static boolean changedBy(Run before, Run after) {
    return !contribution(before).equals(contribution(after));
  }

  private record Contribution(
      RunPhase phase, boolean answered, TokenCounts usage, Double cost, Long sequence) {}

  private static Contribution contribution(Run run) {
    RunStatus status = run.getStatus();
    return new Contribution(
        RunPhase.of(run),
        status != null && status.getResponse() != null,
        status == null ? null : status.getUsage(),
        status == null ? null : status.getCost(),
        run.getSpec() == null ? null : run.getSpec().getSequence());
  }

  private static ThreadState stateAfter(Run run) {
    return switch (RunPhase.of(run)) {
      case PENDING, RUNNING -> ThreadState.RUNNING;
      case COMPLETED -> ThreadState.COMPLETED;
      case FAILED -> ThreadState.FAILED;
      case CANCELLED -> ThreadState.CANCELLED;
    };
  }
}
