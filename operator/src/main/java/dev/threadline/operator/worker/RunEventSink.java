package dev.threadline.operator.worker;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.HistoryException;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import dev.threadline.operator.usage.RunUsages;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one run's events to its log in the history store, then announces them in {@code
 * status.lastEventSeq} (with the last usage report in {@code status.usage}). An event is written at
 * once when no write is in flight; the events that arrive during a write go together in the next
 * one — one transaction of the store, then one small status write — so a busy run makes one write
 * per round trip, not one per event. The store records each runner seq once per run, so an event is
 * never recorded twice, not even by a second worker that repeats a step.
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
  private final EventRecorder recorder;
  private final Usage routing;
  private long emittedSeq;
  private long writtenSeq;
  private boolean closed;
  private boolean holding;

  /** The Run as last written or read (by the flusher only): each write starts from it. */
  private Run known;

  /** {@code deltas} learns, before each write, the last log entry the write will hold. */
  /**
   * {@code routing} is what the call that handed the run over cost: the usage the first write
   * records when the run has none yet, so the run's spend is counted before its first report.
   */
  RunEventSink(
      KubernetesClient client,
      Run run,
      long recordedSeq,
      Deltas deltas,
      EventRecorder recorder,
      Usage routing) {
    this.client = client;
    this.recorder = recorder;
    this.routing = routing;
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
    RunStatus appended = new RunStatus();
    appended.setLastEventSeq(
        known.getStatus() == null ? null : known.getStatus().getLastEventSeq());
    try {
      if (!recorder.record(known, appended, batch)) {
        return;
      }
    } catch (HistoryException e) {
      // The events stay unrecorded; the worker that repeats this step appends them again.
      try (ResourceLogContext logged = ResourceLogContext.of("Run", namespace, name)) {
        LOG.warn("events not recorded: {}", e.getMessage());
      }
      return;
    }
    long last = appended.getLastEventSeq();
    deltas.written(last);
    Optional<Usage> reported =
        batch.reversed().stream()
            .filter(event -> event.type() == RunnerEventType.USAGE)
            .findFirst()
            .map(event -> ComputerStatus.usage(event.data()));
    try {
      StatusWriteLoop.Outcome<Run> outcome =
          RunStatusUpdates.write(
              client,
              known,
              status -> {
                if (Objects.requireNonNullElse(status.getLastEventSeq(), 0L) >= last) {
                  return false;
                }
                status.setLastEventSeq(last);
                if (reported.isPresent()) {
                  status.setUsage(RunUsages.of(reported.get()));
                } else if (status.getUsage() == null && !Usage.ZERO.equals(routing)) {
                  status.setUsage(RunUsages.of(routing));
                }
                return true;
              });
      if (outcome instanceof StatusWriteLoop.Written<Run>(Run written, Run base)) {
        known = written;
      } else if (outcome instanceof StatusWriteLoop.Unchanged<Run>(Run current)) {
        known = current;
      }
    } catch (KubernetesClientException e) {
      // The events are in the store; the next write (or the outcome) announces them.
      try (ResourceLogContext logged = ResourceLogContext.of("Run", namespace, name)) {
        LOG.warn("events not announced: {}", e.getMessage());
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
