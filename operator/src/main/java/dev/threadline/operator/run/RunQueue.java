package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A thread works on one message at a time, in order: a run starts only once every earlier run of
 * its thread has ended — and, when a {@code rollback} message undid it, has been removed, so the
 * next run's history and workspace no longer hold it. A message sent while the thread is busy
 * ({@code multitaskStrategy} {@code enqueue}, {@code interrupt}, {@code rollback}) is a Run that
 * waits here, durable as any Run.
 *
 * <p>A waiting run is not looked at again on a timer: as the event source of the Run controller
 * ({@link #wakeups}) the queue hears of every change of a Run from the controller's own informer,
 * whose cache already shows the change, and when a run stops holding its thread (it ended, or it
 * was removed) it reconciles the thread's next run that waits.
 */
final class RunQueue {
  static final String INDEX = "runs-by-thread";

  private RunQueue() {}

  static List<String> indexKeys(Run run) {
    return List.of(key(run.getMetadata().getNamespace(), run.getSpec().getThread()));
  }

  /** The earliest run of the thread that {@code run} must wait for; empty when it may start. */
  static Optional<Run> ahead(Run run, IndexedResourceCache<Run> runs) {
    long sequence = sequence(run);
    return ofThread(run, runs).stream()
        .filter(other -> sequence(other) < sequence)
        .filter(RunQueue::holdsTheThread)
        .min(Comparator.comparingLong(RunQueue::sequence));
  }

  /** The thread's earliest run after {@code ended} that has not started yet. */
  static Optional<Run> next(Run ended, IndexedResourceCache<Run> runs) {
    long sequence = sequence(ended);
    return ofThread(ended, runs).stream()
        .filter(other -> sequence(other) > sequence)
        .filter(other -> !RunPhase.of(other).isTerminal())
        .filter(other -> other.getStatus() == null || other.getStatus().getStartedAt() == null)
        .min(Comparator.comparingLong(RunQueue::sequence));
  }

  /** Reconciles the next run of a thread when the run ahead of it ends or goes. */
  static AbstractEventSource<Run, Run> wakeups(IndexedResourceCache<Run> runs) {
    return new Wakeups(runs);
  }

  private static List<Run> ofThread(Run run, IndexedResourceCache<Run> runs) {
    return runs.byIndex(INDEX, key(run.getMetadata().getNamespace(), run.getSpec().getThread()));
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

  /**
   * Told of every event of the controller's Runs before its filters (as a {@link
   * ResourceEventAware} source), after the informer's cache has it.
   */
  private static final class Wakeups extends AbstractEventSource<Run, Run>
      implements ResourceEventAware<Run> {
    private final IndexedResourceCache<Run> runs;

    Wakeups(IndexedResourceCache<Run> runs) {
      super(Run.class, "run-queue");
      this.runs = runs;
    }

    @Override
    public void onResourceUpdated(Run resource, Run before) {
      if (holdsTheThread(before) && !holdsTheThread(resource)) {
        wakeNextAfter(resource);
      }
    }

    @Override
    public void onResourceDeleted(Run resource) {
      wakeNextAfter(resource);
    }

    private void wakeNextAfter(Run gone) {
      if (!isRunning() || gone.getSpec() == null) {
        return;
      }
      next(gone, runs)
          .ifPresent(
              next -> getEventHandler().handleEvent(new Event(ResourceID.fromResource(next))));
    }

    @Override
    public Set<Run> getSecondaryResources(Run primary) {
      return Set.of();
    }
  }
}
