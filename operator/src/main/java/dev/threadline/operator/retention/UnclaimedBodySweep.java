package dev.threadline.operator.retention;

import dev.threadline.history.History;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes long message bodies that no Run claimed: the API server stores a body before it creates
 * the Run that names it, and deletes it when that creation fails; a body left by a failure of the
 * store or the API in between (or a crash) is removed here once {@link #AGE} old, its bytes given
 * back to its user's history quota. Every replica may sweep: each removal is one transaction.
 */
public final class UnclaimedBodySweep implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UnclaimedBodySweep.class);

  /** How old an unclaimed body is before it goes: far longer than a Run's creation takes. */
  public static final Duration AGE = Duration.ofHours(1);

  static final Duration INTERVAL = Duration.ofMinutes(10);

  /** Bodies removed per transaction, and transactions per round: the work of a round is bounded. */
  static final int BATCH = 500;

  static final int BATCHES_PER_ROUND = 20;

  private final History history;
  private final Clock clock;
  private final Duration age;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("unclaimed-body-sweep").factory());

  private UnclaimedBodySweep(History history, Clock clock, Duration age) {
    this.history = history;
    this.clock = clock;
    this.age = age;
  }

  public static UnclaimedBodySweep start(History history, Clock clock) {
    return start(history, clock, AGE, INTERVAL);
  }

  static UnclaimedBodySweep start(History history, Clock clock, Duration age, Duration interval) {
    UnclaimedBodySweep sweep = new UnclaimedBodySweep(history, clock, age);
    sweep.timer.scheduleWithFixedDelay(
        sweep::sweepOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return sweep;
  }

  /** One round; answers how many bodies went. */
  int sweepOnce() {
    int removed = 0;
    try {
      for (int batch = 0; batch < BATCHES_PER_ROUND; batch++) {
        int gone = history.messageBodies().removeUnclaimed(clock.instant().minus(age), BATCH);
        removed += gone;
        if (gone < BATCH) {
          break;
        }
      }
    } catch (RuntimeException failed) {
      // The store is unavailable this once: the next round tries again.
      LOG.warn("Could not sweep unclaimed message bodies: {}", failed.toString());
    }
    if (removed > 0) {
      LOG.info("Removed {} message bodies no run claimed (older than {})", removed, age);
    }
    return removed;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
