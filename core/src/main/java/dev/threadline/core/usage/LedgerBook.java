package dev.threadline.core.usage;

import dev.threadline.crds.usage.UsageEntry;
import dev.threadline.crds.usage.UsageLedgerStatus;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * The bookkeeping of a {@code UsageLedger}'s status, free of I/O: add a run once, and forget runs
 * whose counting is settled. See {@link UsageLedgerStatus} for the two-phase protocol.
 */
public final class LedgerBook {
  private LedgerBook() {}

  /**
   * Adds a run's figures unless its entry is pending already.
   *
   * @return whether the status changed
   */
  public static boolean add(UsageLedgerStatus status, String runUid, UsageEntry entry) {
    if (status.getPending().containsKey(runUid)) {
      return false;
    }
    status.getPending().put(runUid, entry);
    status.setTokens(status.tokens().plus(entry));
    status.setTotalCost(
        Costs.sum(
            Objects.requireNonNullElse(status.getTotalCost(), 0.0),
            Objects.requireNonNullElse(entry.getCost(), 0.0)));
    status.setRuns(value(status.getRuns()) + 1);
    return true;
  }

  /**
   * Drops pending entries whose run is settled: marked as counted, or gone (a deleted Run is never
   * counted again). Totals keep their figures.
   *
   * @param settled given a run's uid and name
   * @return how many entries were dropped
   */
  public static int forgetSettled(UsageLedgerStatus status, BiPredicate<String, String> settled) {
    int before = status.getPending().size();
    status
        .getPending()
        .entrySet()
        .removeIf(pending -> settled.test(pending.getKey(), pending.getValue().getRun()));
    return before - status.getPending().size();
  }

  private static long value(Long value) {
    return value == null ? 0 : value;
  }
}
