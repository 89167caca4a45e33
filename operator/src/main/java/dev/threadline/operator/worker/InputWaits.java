package dev.threadline.operator.worker;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunWait;
import dev.threadline.history.RunAnswers;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredAnswer;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.webhooks.WaitWebhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's waits for a person. A wait is written to the Run first ({@code status.waitingFor} and
 * the {@value #CONDITION} condition), so that an answer finds it; the answer is named in the Run's
 * spec ({@code spec.answer}), which the worker's watch of Runs brings here ({@link #changed}), and
 * its texts are read from the history store, where the API server recorded them first: the waiting
 * loop sleeps until then, its stop, or the wait's timeout, which counts from the recorded {@code
 * since} and so survives a failover.
 */
final class InputWaits {
  private static final Logger LOG = LoggerFactory.getLogger(InputWaits.class);
  static final String CONDITION = "WaitingForInput";

  /** A wait wakes at least this often to look again, in case a watch event was missed. */
  private static final Duration RECHECK = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final RunAnswers answers;
  private final String namespace;
  private final String name;
  private final Clock clock;
  private final Conditions conditions;
  private final Duration timeout;
  private final OperatorMetrics metrics;
  private final WaitWebhooks webhooks;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private Run latest;
  private boolean stopped;

  InputWaits(
      Run run,
      KubernetesClient client,
      RunAnswers answers,
      Clock clock,
      Duration timeout,
      OperatorMetrics metrics) {
    this.client = client;
    this.answers = answers;
    this.namespace = run.getMetadata().getNamespace();
    this.name = run.getMetadata().getName();
    this.clock = clock;
    this.conditions = new Conditions(clock);
    this.timeout = timeout;
    this.metrics = metrics;
    this.latest = run;
    this.webhooks = new WaitWebhooks(client);
  }

  /** The Run as the watch now has it. */
  void changed(Run run) {
    lock.lock();
    try {
      latest = run;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records that the run waits on {@code callId} (kept as it is when a worker before this one
   * recorded it), runs {@code announce} (which emits the request's event), then waits for its
   * answer; a timeout gives a denial that says so. Empty when the loop stops first.
   */
  Optional<Answered> await(String callId, String kind, String tool, Runnable announce)
      throws InterruptedException {
    Run current = client.resources(Run.class).inNamespace(namespace).withName(name).get();
    if (current == null) {
      return Optional.empty();
    }
    changed(current);
    RunKey key = new RunKey(namespace, current.getSpec().getThread(), name);
    // Recorded before this wait began: a worker before this one may have acted on it.
    Optional<StoredAnswer> given = answers.of(key, callId);
    boolean earlier = given.isPresent();
    Instant since = recordedSince(current, callId).orElseGet(clock::instant);
    if (given.isEmpty()) {
      RunWait wait = new RunWait(callId, kind, tool, Timestamps.format(since));
      if (markWaiting(wait)) {
        announceToWebhooks(current, wait);
      }
      announce.run(); // after the Run says it waits: a client that sees the request can answer it
      given = awaitTold(key, callId, since.plus(timeout));
    } else {
      announce.run();
    }
    if (given.isEmpty()) {
      return Optional.empty();
    }
    markAnswered(callId, given.get());
    if (metrics != null && !earlier) {
      metrics.inputWait(kind, Duration.between(since, clock.instant()));
    }
    return Optional.of(new Answered(given.get(), earlier));
  }

  /**
   * Sleeps until the Run's spec names an answer to {@code callId} (then reads it from the store),
   * the loop stops (empty), or {@code deadline} passes (a denial that says so).
   */
  private Optional<StoredAnswer> awaitTold(RunKey key, String callId, Instant deadline)
      throws InterruptedException {
    Optional<RunAnswer> told;
    lock.lock();
    try {
      while (true) {
        told = RunAnswer.in(latest, callId);
        if (told.isPresent() || stopped) {
          break;
        }
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.isNegative() || left.isZero()) {
          return Optional.of(timedOut(key, callId));
        }
        changed.await(Math.min(left.toMillis(), RECHECK.toMillis()) + 1, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
    if (told.isEmpty()) {
      return Optional.empty();
    }
    RunAnswer named = told.get();
    // The API server records the texts before it names the answer: missing only if removed since.
    return Optional.of(
        answers
            .of(key, callId)
            .orElseGet(() ->
                new StoredAnswer(
                    key.run(), callId, named.getDecision(), null, null, named.getAnsweredAt())));
  }

  /**
   * An answer; {@code earlier} when it was recorded before this wait began (a worker before this
   * one may have acted on it), otherwise it came while this worker waited, so no worker can have
   * made the call yet.
   */
  record Answered(StoredAnswer answer, boolean earlier) {}

  private StoredAnswer timedOut(RunKey key, String callId) {
    return new StoredAnswer(
        key.run(),
        callId,
        RunAnswer.DENY,
        "nobody answered within " + timeout.toSeconds() + " seconds",
        null,
        null);
  }

  private static Optional<Instant> recordedSince(Run run, String callId) {
    RunWait wait = run.getStatus() == null ? null : run.getStatus().getWaitingFor();
    return wait != null && callId.equals(wait.getCallId())
        ? Timestamps.parse(wait.getSince())
        : Optional.empty();
  }

  private void announceToWebhooks(Run run, RunWait wait) {
    try {
      webhooks.queue(run, wait);
    } catch (RuntimeException e) {
      // The wait goes on; only the notice is lost (a failover's worker queues it again).
      LOG.warn("run.approval_requested not queued: {}", e.getMessage());
    }
  }

  /** Whether this wrote it (false when a worker before this one did). */
  private boolean markWaiting(RunWait wait) {
    return RunStatusUpdates.write(
        client,
        namespace,
        name,
        status -> {
          RunWait recorded = status.getWaitingFor();
          if (recorded != null && Objects.equals(recorded.getCallId(), wait.getCallId())) {
            return false;
          }
          status.setWaitingFor(wait);
          status.setConditions(
              conditions.set(
                  status.getConditions(),
                  CONDITION,
                  Conditions.TRUE,
                  RunWait.APPROVAL.equals(wait.getKind()) ? "ApprovalRequested" : "QuestionAsked",
                  wait.getTool() + " call " + wait.getCallId() + " waits for a person",
                  null));
          return true;
        });
  }

  private void markAnswered(String callId, StoredAnswer answer) {
    RunStatusUpdates.write(
        client,
        namespace,
        name,
        status -> {
          RunWait recorded = status.getWaitingFor();
          if (recorded == null || !Objects.equals(recorded.getCallId(), callId)) {
            return false;
          }
          status.setWaitingFor(null);
          status.setConditions(
              conditions.set(
                  status.getConditions(),
                  CONDITION,
                  Conditions.FALSE,
                  answer.answeredAt() == null && RunAnswer.DENY.equals(answer.decision())
                      ? "TimedOut"
                      : "Answered",
                  "call " + callId + " was answered",
                  null));
          return true;
        });
  }
}
