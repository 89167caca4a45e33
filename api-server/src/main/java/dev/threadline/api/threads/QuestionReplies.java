package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.stream.EventCursor;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.MultitaskStrategy;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunWait;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.EventLog;
import dev.threadline.history.RunKey;
import java.util.List;
import java.util.Optional;

/**
 * A message that answers the question a thread's run waits on ({@code ask_user}): with the
 * strategies that would not disturb the running run ({@code reject}, the default, and {@code
 * enqueue}), the next message to a thread whose run asked a question is its answer, as if posted to
 * {@code /approvals}; {@code interrupt} and {@code rollback} keep their meaning (the run is
 * superseded). The message starts no run: its response follows the waiting run's stream from after
 * the question.
 */
final class QuestionReplies {
  private final ThreadService threads;
  private final ApprovalAnswers answers;
  private final EventLog events;

  QuestionReplies(ThreadService threads, ApprovalAnswers answers, EventLog events) {
    this.threads = threads;
    this.answers = answers;
    this.events = events;
  }

  /** Whether a message sent with {@code strategy} answers a waiting question. */
  static boolean answersQuestions(MultitaskStrategy strategy) {
    return strategy == MultitaskStrategy.REJECT || strategy == MultitaskStrategy.ENQUEUE;
  }

  /**
   * The run whose question {@code content} answered, and where its stream goes on; empty when no
   * run of the thread waits on a question.
   */
  Optional<Answered> reply(
      Tenant tenant, ConversationThread thread, String content, List<?> attachments) {
    Optional<Run> asking =
        threads.runsOf(thread).stream()
            .filter(run -> !RunPhase.of(run).isTerminal())
            .filter(QuestionReplies::asks)
            .findFirst();
    if (asking.isEmpty()) {
      return Optional.empty();
    }
    Run run = asking.get();
    RunWait wait = run.getStatus().getWaitingFor();
    if (content.length() > RunAnswer.MAX_ANSWER) {
      throw ApiException.badRequest(
          "content",
          "must be at most "
              + RunAnswer.MAX_ANSWER
              + " characters: it answers the question of call "
              + wait.getCallId());
    }
    if (attachments != null && !attachments.isEmpty()) {
      throw ApiException.badRequest(
          "attachments",
          "cannot be given: the message answers the question of call " + wait.getCallId());
    }
    // Events recorded until now were streamed with the question: the response goes on after them.
    long seen =
        events.lastSeq(
            new RunKey(
                run.getMetadata().getNamespace(),
                run.getSpec().getThread(),
                run.getMetadata().getName()));
    String threadId = ResourceIds.toId(thread.getMetadata().getName());
    answers.answer(tenant, threadId, new ApprovalRequest(wait.getCallId(), null, null, content));
    return Optional.of(
        new Answered(
            run,
            new EventCursor(
                ResourceIds.toId(run.getMetadata().getName()), seen, Integer.MAX_VALUE)));
  }

  /** The run that waits on the question, and the position its stream goes on after. */
  record Answered(Run run, EventCursor after) {}

  private static boolean asks(Run run) {
    RunWait wait = run.getStatus() == null ? null : run.getStatus().getWaitingFor();
    return wait != null
        && RunWait.QUESTION.equals(wait.getKind())
        && RunAnswer.in(run, wait.getCallId()).isEmpty();
  }
}
