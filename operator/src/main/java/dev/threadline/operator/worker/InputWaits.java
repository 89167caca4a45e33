package dev.threadline.operator.worker;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunWait;
import dev.threadline.history.RunAnswers;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredAnswer;
import dev.threadline.operator.computer.SandboxGiveBack;
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
 * since} and so survives a failover. A wait longer than the worker's release setting gives the
 * run's sandbox back ({@link GiveBack}).
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
  private final GiveBack giveBack;
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
      OperatorMetrics metrics,
      GiveBack giveBack) {
    this.giveBack = giveBack;
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
   * answer; a timeout gives a denial that says so. Empty when the loop stops first, or when the
   * wait outlasted {@link GiveBack#due} and its sandbox was given back (a sandbox is taken again
   * when it is answered, and a worker goes on there).
   */
  Optional<Answered> await(String callId, String kind, String tool, Runnable announce)
      throws InterruptedException {
    Run current = client.resources(Run.class).inNamespace(namespace).withName(name).get();
    if (current == null) {
      return Optional.empty();
    }
    changed(current);
    RunKey key = new RunKey(namespace, current.getSpec().getThread(), name);
    Optional<StoredAnswer> given = answers.of(key, callId);
    Optional<RunWait> recorded = recorded(current, callId);
    // Recorded before this wait began: a worker before this one may have acted on it — unless that
    // wait gave its sandbox back, when no worker held the run until the answer came.
    boolean earlier =
        given.isPresent() && recorded.map(wait -> wait.getSandboxGivenBack() == null).orElse(true);
    Instant since =
        recorded.flatMap(wait -> Timestamps.parse(wait.getSince())).orElseGet(clock::instant);
    if (given.isPresent()) {
      announce.run();
      return Optional.of(answered(callId, kind, since, given.get(), earlier));
    }
    RunWait wait = new RunWait(callId, kind, tool, Timestamps.format(since));
    if (markWaiting(wait)) {
      announceToWebhooks(current, wait);
    }
    announce.run(); // after the Run says it waits: a client that sees the request can answer it
    Instant deadline = since.plus(timeout);
    Instant release =
        recorded.map(RunWait::getSandboxGivenBack).isPresent() ? Instant.MAX : giveBack.due(since);
    Optional<RunAnswer> told;
    while (true) {
      Run seen;
      boolean stop;
      lock.lock();
      try {
        seen = latest;
        stop = stopped;
      } finally {
        lock.unlock();
      }
      told = RunAnswer.in(seen, callId);
      if (told.isPresent() || stop) {
        break;
      }
      Instant now = clock.instant();
      if (!now.isBefore(deadline)) {
        return Optional.of(answered(callId, kind, since, timedOut(key, callId), false));
      }
      if (!now.isBefore(release) && SandboxGiveBack.of(seen.getStatus()) == SandboxGiveBack.NONE) {
        if (giveBack.giveBack(callId)) {
          return Optional.empty();
        }
        release = Instant.MAX; // not kept elsewhere: the wait goes on with its sandbox
      }
      Instant wake = earliest(deadline, release, now.plus(RECHECK));
      lock.lock();
      try {
        if (latest == seen && !stopped) {
          changed.await(Duration.between(now, wake).toMillis() + 1, TimeUnit.MILLISECONDS);
        }
      } finally {
        lock.unlock();
      }
    }
    if (told.isEmpty()) {
      return Optional.empty();
    }
    RunAnswer named = told.get();
    // The API server records the texts before it names the answer: missing only if removed since.
    StoredAnswer answer =
        answers
            .of(key, callId)
            .orElseGet(() ->
                new StoredAnswer(
                    key.run(), callId, named.getDecision(), null, null, named.getAnsweredAt()));
    return Optional.of(answered(callId, kind, since, answer, false));
  }

  /** Ends the recorded wait with {@code answer}, counting how long a person took. */
  private Answered answered(
      String callId, String kind, Instant since, StoredAnswer answer, boolean earlier) {
    if (markAnswered(callId, answer) && metrics != null) {
      metrics.inputWait(kind, Duration.between(since, clock.instant()));
    }
    return new Answered(answer, earlier);
  }

  /**
   * When a wait gives its sandbox back, and how: the run's work keeps the workspace and says so in
   * the Run, after which the computer path takes the Pod away.
   */
  interface GiveBack {
    /** When a wait that began {@code since} gives its sandbox back. */
    Instant due(Instant since);

    /** Whether the sandbox was given back (false: it is kept through the wait). */
    boolean giveBack(String callId);
  }

  private static Instant earliest(Instant a, Instant b, Instant c) {
    Instant first = a.isBefore(b) ? a : b;
    return first.isBefore(c) ? first : c;
  }

  /**
   * An answer; {@code earlier} when it was in the Run before this wait began (a worker before this
   * one may have acted on it), otherwise it came while this worker waited, or while the run waited
   * with its sandbox given back, so no worker can have made the call yet.
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

  private static Optional<RunWait> recorded(Run run, String callId) {
    RunWait wait = run.getStatus() == null ? null : run.getStatus().getWaitingFor();
    return wait != null && callId.equals(wait.getCallId()) ? Optional.of(wait) : Optional.empty();
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

  /** Whether this ended the recorded wait (false when a worker before this one did). */
  private boolean markAnswered(String callId, StoredAnswer answer) {
    return RunStatusUpdates.write(
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
