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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the call a thread's run waits on ({@code status.waitingFor}): the answer goes into the
 * Run's spec ({@code spec.answers}), where whichever worker holds the run reads it. One answer per
 * call: posting it again returns the recorded one; a call that nothing waits on is a 409.
 */
final class ApprovalAnswers {
  private static final Logger log = LoggerFactory.getLogger(ApprovalAnswers.class);

  private final ThreadService threads;
  private final RunStore runs;
  private final Clock clock;

  ApprovalAnswers(ThreadService threads, RunStore runs, Clock clock) {
    this.threads = threads;
    this.runs = runs;
    this.clock = clock;
  }

  ApprovalView answer(Tenant tenant, String threadId, ApprovalRequest request) {
    RunAnswer answer = validated(request);
    ConversationThread thread = threads.find(tenant, threadId);
    String namespace = thread.getMetadata().getNamespace();
    List<Run> ofThread = threads.runsOf(thread);
    for (Run run : ofThread) {
      Optional<RunAnswer> recorded = RunAnswer.in(run, answer.getCallId());
      if (recorded.isPresent()) {
        return view(threadId, run, recorded.get());
      }
    }
    Optional<Run> active =
        ofThread.stream().filter(run -> !RunPhase.of(run).isTerminal()).reduce((a, b) -> b);
    if (active.isEmpty()) {
      throw notWaiting(threadId, answer.getCallId());
    }
    answer.setAnsweredAt(Timestamps.format(clock.instant()));
    Run written =
        runs.update(
                namespace,
                active.get().getMetadata().getName(),
                current -> {
                  if (RunAnswer.in(current, answer.getCallId()).isPresent()) {
                    return false; // answered meanwhile: the recorded one is returned
                  }
                  RunWait wait =
                      current.getStatus() == null ? null : current.getStatus().getWaitingFor();
                  if (RunPhase.of(current).isTerminal()
                      || wait == null
                      || !answer.getCallId().equals(wait.getCallId())) {
                    throw notWaiting(threadId, answer.getCallId());
                  }
                  requireFits(wait, answer);
                  List<RunAnswer> answers =
                      new ArrayList<>(
                          Objects.requireNonNullElse(current.getSpec().getAnswers(), List.of()));
                  if (answers.size() >= RunSpec.MAX_ANSWERS) {
                    throw ApiException.conflict(
                        "Run "
                            + ResourceIds.toId(current.getMetadata().getName())
                            + " has had as many answers as a run may have");
                  }
                  answers.add(answer);
                  current.getSpec().setAnswers(answers);
                  return true;
                })
            .orElseThrow(() -> notWaiting(threadId, answer.getCallId()));
    RunAnswer kept = RunAnswer.in(written, answer.getCallId()).orElse(answer);
    log.info(
        "Run({}/{}) call {} answered ({})",
        namespace,
        written.getMetadata().getName(),
        kept.getCallId(),
        kept.getDecision() == null ? "answer" : kept.getDecision());
    return view(threadId, written, kept);
  }

  /** A decision for an approval, an answer for a question. */
  private static void requireFits(RunWait wait, RunAnswer answer) {
    boolean question = RunWait.QUESTION.equals(wait.getKind());
    if (question && answer.getAnswer() == null) {
      throw ApiException.badRequest(
          "answer", "is required: call " + wait.getCallId() + " is a question");
    }
    if (!question && answer.getDecision() == null) {
      throw ApiException.badRequest(
          "decision",
          "is required (approve or deny): call " + wait.getCallId() + " waits for an approval");
    }
  }

  private static RunAnswer validated(ApprovalRequest request) {
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
    RunAnswer answer = new RunAnswer();
    answer.setCallId(request.callId());
    answer.setDecision(request.decision());
    answer.setMessage(request.decision() == null ? null : request.message());
    answer.setAnswer(request.answer());
    return answer;
  }

  private static ApprovalView view(String threadId, Run run, RunAnswer answer) {
    return new ApprovalView(
        threadId,
        ResourceIds.toId(run.getMetadata().getName()),
        answer.getCallId(),
        answer.getDecision(),
        answer.getMessage(),
        answer.getAnswer(),
        answer.getAnsweredAt());
  }

  private static ApiException notWaiting(String threadId, String callId) {
    return ApiException.conflict("Thread " + threadId + " is not waiting for call " + callId);
  }
}
