package dev.threadline.core.threads;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ThreadState;
import dev.threadline.crds.usage.TokenCounts;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's state and totals, derived from its runs alone, so that recomputing is always safe:
 * each run counts its user message, and its assistant answer once it has one.
 */
public record ThreadTotals(
    ThreadState state, String activeRun, long messageCount, TokenCounts tokens, double totalCost) {

  public static ThreadTotals of(Collection<Run> runs) {
    return of(null, runs);
  }

  /**
   * With what the runs that left the Kubernetes API added ({@code archived}, may be null): a live
   * run already counted there (it is on its way out) is not counted twice.
   */
  public static ThreadTotals of(ArchivedRuns archived, Collection<Run> allRuns) {
    long archivedUpTo = ArchivedRuns.lastSequenceOf(archived);
    List<Run> runs =
        allRuns.stream()
            .filter(
                run -> Objects.requireNonNullElse(run.getSpec().getSequence(), 0L) > archivedUpTo)
            .toList();
    long messages = 0;
    TokenCounts tokens = TokenCounts.zero();
    BigDecimal cost = BigDecimal.ZERO;
    if (archived != null) {
      messages = Objects.requireNonNullElse(archived.getMessages(), 0L);
      tokens = tokens.plus(archived.getTokens());
      if (archived.getCost() != null) {
        cost = BigDecimal.valueOf(archived.getCost());
      }
    }
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
    ThreadState state =
        latest
            .map(ThreadTotals::stateAfter)
            .orElseGet(() ->
                archived == null || archived.getLastState() == null
                    ? ThreadState.ACTIVE
                    : ThreadState.fromValue(archived.getLastState()));
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

  /** What {@code run} adds to its thread's totals, once it leaves the Kubernetes API. */
  public static ArchivedRuns archive(ArchivedRuns before, Run run) {
    ThreadTotals alone = of(List.of(run));
    ArchivedRuns after = new ArchivedRuns();
    long runs = before == null ? 0 : Objects.requireNonNullElse(before.getRuns(), 0L);
    long messages = before == null ? 0 : Objects.requireNonNullElse(before.getMessages(), 0L);
    double cost = before == null ? 0 : Objects.requireNonNullElse(before.getCost(), 0.0);
    after.setRuns(runs + 1);
    after.setMessages(messages + alone.messageCount());
    after.setTokens(
        TokenCounts.zero().plus(before == null ? null : before.getTokens()).plus(alone.tokens()));
    after.setCost(
        BigDecimal.valueOf(cost).add(BigDecimal.valueOf(alone.totalCost())).doubleValue());
    after.setLastSequence(Objects.requireNonNullElse(run.getSpec().getSequence(), 0L));
    after.setLastState(stateAfter(run).value());
    return after;
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
