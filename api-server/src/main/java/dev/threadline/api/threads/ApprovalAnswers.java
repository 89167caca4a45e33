package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunWait;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.History;
import dev.threadline.history.RunAnswers;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredAnswer;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the call a thread's run waits on ({@code status.waitingFor}): the answer's texts go to
 * the history store first, then the Run's spec ({@code spec.answer}) names the call, its decision
 * and time — durable before it is acknowledged, and whichever worker holds the run reads the texts
 * from the store when its watch shows the answer. One answer per call: posting it again returns the
 * recorded one; a call that nothing waits on is a 409.
 */
final class ApprovalAnswers {
  private static final Logger log = LoggerFactory.getLogger(ApprovalAnswers.class);

  private final ThreadService threads;
  private final RunStore runs;
  private final RunAnswers answers;
  private final Clock clock;

  ApprovalAnswers(ThreadService threads, RunStore runs, History history, Clock clock) {
    this.threads = threads;
    this.runs = runs;
    this.answers = history.answers();
    this.clock = clock;
  }

  ApprovalView answer(Tenant tenant, String threadId, ApprovalRequest request) {
    StoredAnswer asked = validated(request);
    ConversationThread thread = threads.find(tenant, threadId);
    String namespace = thread.getMetadata().getNamespace();
    String threadName = thread.getMetadata().getName();
    String callId = asked.callId();
    List<Run> working =
        threads.runsOf(thread).stream().filter(run -> !RunPhase.of(run).isTerminal()).toList();
    // The cache may not show the wait yet (a client answers as soon as it sees the request): then
    // the thread's working run, whose wait is checked on the API's copy.
    Optional<Run> waiting =
        working.stream()
            .filter(run -> waitsOn(run, callId))
            .findFirst()
            .or(() -> working.stream().findFirst());
    AtomicReference<StoredAnswer> kept = new AtomicReference<>();
    waiting.ifPresent(run ->
        runs.update(
            namespace,
            run.getMetadata().getName(),
            current -> {
              if (RunAnswer.in(current, callId).isPresent()
                  || RunPhase.of(current).isTerminal()
                  || !waitsOn(current, callId)) {
                return false; // told already, or it waits no more: the recorded answer, if any
              }
              StoredAnswer stored = record(current, asked);
              kept.set(stored);
              current
                  .getSpec()
                  .setAnswer(new RunAnswer(callId, stored.decision(), stored.answeredAt()));
              return true;
            }));
    StoredAnswer answer =
        Optional.ofNullable(kept.get())
            .or(() -> answers.inThread(namespace, threadName, callId))
            .orElseThrow(() -> notWaiting(threadId, callId));
    if (kept.get() != null) {
      log.info(
          "Run({}/{}) call {} answered ({})",
          namespace,
          answer.run(),
          callId,
          answer.decision() == null ? "answer" : answer.decision());
    }
    return view(threadId, answer);
  }

  /** The answer recorded for the call, recording {@code asked} when there is none yet. */
  private StoredAnswer record(Run run, StoredAnswer asked) {
    RunKey key =
        new RunKey(
            run.getMetadata().getNamespace(),
            run.getSpec().getThread(),
            run.getMetadata().getName());
    Optional<StoredAnswer> recorded = answers.of(key, asked.callId());
    if (recorded.isPresent()) {
      return recorded.get();
    }
    requireFits(run.getStatus().getWaitingFor(), asked);
    StoredAnswer timed =
        new StoredAnswer(
            key.run(),
            asked.callId(),
            asked.decision(),
            asked.message(),
            asked.answer(),
            Timestamps.format(clock.instant()));
    return answers
        .record(key, timed, RunSpec.MAX_ANSWERS)
        .orElseThrow(() ->
            ApiException.conflict(
                "Run "
                    + ResourceIds.toId(key.run())
                    + " has had as many answers as a run may have ("
                    + RunSpec.MAX_ANSWERS
                    + ")"));
  }

  private static boolean waitsOn(Run run, String callId) {
    RunWait wait = run.getStatus() == null ? null : run.getStatus().getWaitingFor();
    return wait != null && callId.equals(wait.getCallId());
  }

  /** A decision for an approval, an answer for a question. */
  private static void requireFits(RunWait wait, StoredAnswer answer) {
    boolean question = RunWait.QUESTION.equals(wait.getKind());
    if (question && answer.answer() == null) {
      throw ApiException.badRequest(
          "answer", "is required: call " + wait.getCallId() + " is a question");
    }
    if (!question && answer.decision() == null) {
      throw ApiException.badRequest(
          "decision",
          "is required (approve or deny): call " + wait.getCallId() + " waits for an approval");
    }
  }

  private static StoredAnswer validated(ApprovalRequest request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    if (request.callId() == null || request.callId().isBlank()) {
      throw ApiException.badRequest("callId", "is required");
    }
    if (request.callId().length() > RunAnswer.MAX_CALL_ID) {
      throw ApiException.badRequest(
          "callId", "must be at most " + RunAnswer.MAX_CALL_ID + " characters");
    }
    if (request.decision() == null && request.answer() == null) {
      throw ApiException.badRequest(
          "decision", "is required (approve or deny), or answer for a question");
    }
    if (request.decision() != null && request.answer() != null) {
      throw ApiException.badRequest("answer", "cannot be given with decision");
    }
    if (request.decision() != null
        && !request.decision().equals(RunAnswer.APPROVE)
        && !request.decision().equals(RunAnswer.DENY)) {
      throw ApiException.badRequest("decision", "must be approve or deny");
    }
    if (request.message() != null && request.message().length() > RunAnswer.MAX_MESSAGE) {
      throw ApiException.badRequest(
          "message", "must be at most " + RunAnswer.MAX_MESSAGE + " characters");
    }
    if (request.answer() != null && request.answer().length() > RunAnswer.MAX_ANSWER) {
      throw ApiException.badRequest(
          "answer", "must be at most " + RunAnswer.MAX_ANSWER + " characters");
    }
    return new StoredAnswer(
        null,
        request.callId(),
        request.decision(),
        request.decision() == null ? null : request.message(),
        request.answer(),
        null);
  }

  private static ApprovalView view(String threadId, StoredAnswer answer) {
    return new ApprovalView(
        threadId,
        ResourceIds.toId(answer.run()),
        answer.callId(),
        answer.decision(),
        answer.message(),
        answer.answer(),
        answer.answeredAt());
  }

  private static ApiException notWaiting(String threadId, String callId) {
    return ApiException.conflict("Thread " + threadId + " is not waiting for call " + callId);
  }
}
