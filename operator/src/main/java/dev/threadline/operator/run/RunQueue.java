package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread works on one message at a time, in order: a run starts only once every earlier run of
 * its thread has ended — and, when a {@code rollback} message undid it, has been removed, so the
 * next run's history and workspace no longer hold it. A message sent while the thread is busy
 * ({@code multitaskStrategy} {@code enqueue}, {@code interrupt}, {@code rollback}) is a Run that
 * waits here, durable as any Run.
 */
final class RunQueue {
  static final String INDEX = "runs-by-thread";

  /**
   * How often a waiting run looks again. A wait lasts as long as the run ahead works, so a look
   * every half second costs little and keeps the next message's start close to the end of the one
   * before.
   */
  static final Duration RECHECK = Duration.ofMillis(500);

  private RunQueue() {}

  static List<String> indexKeys(Run run) {
    return List.of(key(run.getMetadata().getNamespace(), run.getSpec().getThread()));
  }

  /** The earliest run of the thread that {@code run} must wait for; empty when it may start. */
  static Optional<Run> ahead(Run run, Context<Run> context) {
    long sequence = sequence(run);
    return context
        .getPrimaryCache()
        .byIndex(INDEX, key(run.getMetadata().getNamespace(), run.getSpec().getThread()))
        .stream()
        .filter(other -> sequence(other) < sequence)
        .filter(RunQueue::holdsTheThread)
        .min(Comparator.comparingLong(RunQueue::sequence));
  }

  /** Not ended, or ended but undone and not yet removed. */
  private static boolean holdsTheThread(Run run) {
    return !RunPhase.of(run).isTerminal() || RunPhase.undone(run);
  }

  private static long sequence(Run run) {
    return Objects.requireNonNullElse(run.getSpec().getSequence(), 0L);
  }

  private static String key(String namespace, String thread) {
    return namespace + "/" + Objects.requireNonNullElse(thread, "");
  }
}
