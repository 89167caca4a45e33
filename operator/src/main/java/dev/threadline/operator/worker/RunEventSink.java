package dev.threadline.operator.worker;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one run's events to {@code Run.status.events}. An event is written at once when no write
 * is in flight; the events that arrive during a write go together in the next one, so a busy run
 * makes one status write per round trip, not one per event. Each write re-reads the Run on a
 * conflict and records only events above {@code status.runnerSeq}, so an event is never recorded
 * twice, not even by a second worker that repeats a step.
 */
final class RunEventSink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunEventSink.class);
  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<RunnerEvent> queued = new ArrayList<>();
  private final Thread flusher;
  private final Deltas deltas;
  private long emittedSeq;
  private long writtenSeq;
  private boolean closed;
  private boolean holding;

  /** The Run as last written or read (by the flusher only): each write starts from it. */
  private Run known;

  /** {@code deltas} learns, before each write, the last log entry the write will hold. */
  RunEventSink(KubernetesClient client, Run run, long recordedSeq, Deltas deltas) {
    this.client = client;
    this.deltas = deltas;
    this.namespace = run.getMetadata().getNamespace();
    this.name = run.getMetadata().getName();
    this.emittedSeq = recordedSeq;
    this.writtenSeq = recordedSeq;
    this.known = run;
    this.flusher = Thread.ofVirtual().name("events-" + name).start(this::flushLoop);
  }

  void emit(RunnerEvent event) {
    lock.lock();
    try {
      queued.add(event);
      emittedSeq = Math.max(emittedSeq, event.seq());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Holds the writes while {@code emits} runs, so that what it emits goes in one write (a run's
   * opening events: {@code started}, {@code setup}, {@code planning}), not one write per event.
   */
  void together(Runnable emits) {
    lock.lock();
    try {
      holding = true;
    } finally {
      lock.unlock();
    }
    try {
      emits.run();
    } finally {
      lock.lock();
      try {
        holding = false;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Waits until every event emitted so far is in the Run (or the sink was closed). */
  void awaitWritten() throws InterruptedException {
    lock.lock();
    try {
      while (writtenSeq < emittedSeq && !closed) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  private void flushLoop() {
    while (true) {
      List<RunnerEvent> batch;
      lock.lock();
      try {
        while ((queued.isEmpty() || holding) && !closed) {
          changed.await();
        }
        if (queued.isEmpty()) {
          return;
        }
        batch = List.copyOf(queued);
        queued.clear();
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      write(batch);
      lock.lock();
      try {
        writtenSeq = Math.max(writtenSeq, batch.get(batch.size() - 1).seq());
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void write(List<RunnerEvent> batch) {
    try {
      StatusWriteLoop.Outcome<Run> outcome =
          RunStatusUpdates.write(
              client,
              known,
              status -> {
                if (EventRecorder.record(status, batch) == 0) {
                  return false;
                }
                deltas.written(status.getEvents().getLast().getSeq());
                return true;
              });
      if (outcome instanceof StatusWriteLoop.Written<Run>(Run written, Run base)) {
        known = written;
      } else if (outcome instanceof StatusWriteLoop.Unchanged<Run>(Run current)) {
        known = current;
      }
    } catch (KubernetesClientException e) {
      // The events stay unrecorded; the worker that repeats this step writes them again.
      try (ResourceLogContext logged = ResourceLogContext.of("Run", namespace, name)) {
        LOG.warn("events not recorded: {}", e.getMessage());
      }
    }
  }

  /** Writes what is queued, then stops. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      flusher.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
