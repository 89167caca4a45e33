package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.limits.HistoryQuota;
import dev.threadline.api.stream.EventCursor;
import dev.threadline.api.stream.RunCompletion;
import dev.threadline.api.stream.RunLog;
import dev.threadline.api.usage.ExecutionAllowance;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.MultitaskStrategy;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.history.History;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a message sets off: creating a thread with its first task (or its schedule), following up in
 * a thread, waiting for the outcome when the client does not stream, and cancelling.
 */
public final class ExecutionService {
  private static final Logger log = LoggerFactory.getLogger(ExecutionService.class);

  private final ThreadService threads;
  private final RunStarter starter;
  private final RunStore runs;
  private final RunCompletion completion;
  private final Duration maxWait;
  private final Supplier<Optional<ScheduleCreator>> schedules;
  private final ExecutionAllowance allowance;
  private final RunContents contents;
  private final HistoryQuota quota;
  private final QuestionReplies replies;

  /** Without an allowance or a quota: for tests. */
  ExecutionService(
      ThreadService threads,
      RunStore runs,
      RunCompletion completion,
      Duration maxWait,
      Supplier<Optional<ScheduleCreator>> schedules,
      History history) {
    this(
        threads,
        runs,
        completion,
        maxWait,
        schedules,
        ExecutionAllowance.UNLIMITED,
        history,
        new HistoryQuota(history, Long.MAX_VALUE),
        10);
  }

  ExecutionService(
      ThreadService threads,
      RunStore runs,
      RunCompletion completion,
      Duration maxWait,
      Supplier<Optional<ScheduleCreator>> schedules,
      ExecutionAllowance allowance,
      History history,
      HistoryQuota quota,
      int maxQueued) {
    this.allowance = allowance;
    this.threads = threads;
    this.starter = new RunStarter(runs, history, maxQueued);
    this.contents = new RunContents(history, new RunLog(history));
    this.replies =
        new QuestionReplies(
            threads,
            new ApprovalAnswers(threads, runs, history, Clock.systemUTC()),
            history.events());
    this.quota = quota;
    this.runs = runs;
    this.completion = completion;
    this.maxWait = maxWait;
    this.schedules = schedules;
  }

  /** What {@code POST /v1/threads} made. */
  public sealed interface Created permits EmptyThread, ScheduledThread, StartedRun {}

  /** No messages: the thread waits, {@code active}. */
  public record EmptyThread(ThreadView thread) implements Created {}

  /** Messages and a schedule: the schedule will run the task. */
  public record ScheduledThread(ThreadView thread, ScheduleSummary schedule) implements Created {}

  /**
   * A run started; {@code stream} says how the client wants the outcome; {@code after}, when the
   * message answered the question of a run already working, where that run's stream goes on.
   */
  public record StartedRun(
      ConversationThread thread, Run run, boolean stream, Optional<EventCursor> after)
      implements Created {
    public StartedRun(ConversationThread thread, Run run, boolean stream) {
      this(thread, run, stream, Optional.empty());
    }
  }

  public Created createThread(Tenant tenant, ThreadRequests.Create request) {
    ThreadRequests.Create body =
        Objects.requireNonNullElseGet(
            request,
            () ->
                new ThreadRequests.Create(
                    null, null, null, null, null, null, null, null, null, null, null));
    String task = InitialTask.of(body);
    List<Attachment> attachments = AttachmentRules.validate(body.attachments());
    Optional<ScheduleCreator> scheduler = Optional.empty();
    if (body.schedule() != null) {
      if (task == null) {
        throw ApiException.badRequest("schedule", "needs messages or task: nothing to schedule");
      }
      if (!attachments.isEmpty()) {
        throw ApiException.badRequest("attachments", "cannot be given with a schedule");
      }
      scheduler = Optional.of(schedules.get().orElseThrow(ExecutionService::schedulesUnavailable));
    } else if (task == null && !attachments.isEmpty()) {
      throw ApiException.badRequest("attachments", "need a message (messages or task)");
    }
    if (task != null && scheduler.isEmpty()) {
      // Before the first write: a 402 (or a full history) never leaves a thread behind either.
      allowance.requireAllowance(tenant);
      quota.checkRoom(tenant.namespace(), task);
    }
    // Everything is validated before the first write: a 400 never leaves a thread behind.
    ThreadSpec spec = threads.newSpec(tenant, body, task);
    ScheduleRequest scheduleRequest = null;
    if (scheduler.isPresent()) {
      scheduleRequest = scheduleRequest(body.schedule(), task);
      scheduler.get().validate(scheduleRequest);
    }
    ConversationThread thread = threads.create(tenant, spec);
    if (scheduler.isPresent()) {
      return schedule(tenant, thread, scheduler.get(), scheduleRequest);
    }
    if (task == null) {
      return new EmptyThread(threads.view(tenant, thread));
    }
    Run run;
    try {
      run =
          starter.start(
              thread,
              task,
              attachments,
              false,
              Boolean.TRUE.equals(body.streamTokens()),
              MultitaskStrategy.REJECT);
    } catch (RuntimeException failed) {
      discard(tenant, thread);
      throw failed;
    }
    return new StartedRun(thread, run, !Boolean.FALSE.equals(body.stream()));
  }

  public StartedRun postMessage(
      Tenant tenant, String threadId, ThreadRequests.PostMessage request) {
    threads.find(tenant, threadId);
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    String content = ThreadRules.content("content", request.content());
    List<Attachment> attachments = AttachmentRules.validate(request.attachments());
    MultitaskStrategy strategy = ThreadRules.multitaskStrategy(request.multitaskStrategy());
    allowance.requireAllowance(tenant);
    quota.checkRoom(tenant.namespace(), content);
    // A thread kept in the history store after its retention comes back for its next message.
    ConversationThread thread = threads.live(tenant, threadId);
    boolean stream = !Boolean.FALSE.equals(request.stream());
    if (QuestionReplies.answersQuestions(strategy)) {
      Optional<QuestionReplies.Answered> answered =
          replies.reply(tenant, thread, content, attachments);
      if (answered.isPresent()) {
        return new StartedRun(
            thread, answered.get().run(), stream, Optional.of(answered.get().after()));
      }
    }
    Run run =
        starter.start(
            thread,
            content,
            attachments,
            true,
            Boolean.TRUE.equals(request.streamTokens()),
            strategy);
    return new StartedRun(thread, run, stream);
  }

  /**
   * A run started earlier (by the first of repeated idempotent requests), to answer a repeat the
   * way the first was answered; 404 when it (or its thread) is gone.
   */
  StartedRun rejoin(Tenant tenant, String runName, boolean stream) {
    Run run =
        runs.find(tenant.namespace(), runName)
            .orElseThrow(() -> ApiException.notFound("Run " + ResourceIds.toId(runName)));
    ConversationThread thread = threads.find(tenant, ResourceIds.toId(run.getSpec().getThread()));
    return new StartedRun(thread, run, stream);
  }

  /** Waits for the run to finish and reports it with the thread in its final state. */
  public ThreadExecutionResponse awaitExecution(Tenant tenant, StartedRun started)
      throws InterruptedException {
    String namespace = started.run().getMetadata().getNamespace();
    String runName = started.run().getMetadata().getName();
    String threadId = ResourceIds.toId(started.thread().getMetadata().getName());
    RunCompletion.Outcome outcome = completion.await(namespace, runName, maxWait);
    return switch (outcome.kind()) {
      case FINISHED ->
          new ThreadExecutionResponse(threads.get(tenant, threadId), execution(outcome.run()));
      case TIMED_OUT ->
          throw ApiException.serviceUnavailable(
              "The execution is still running after "
                  + maxWait.toSeconds()
                  + " s; it goes on: read its answer from GET /v1/threads/"
                  + threadId
                  + "/messages");
      case SHUTDOWN ->
          throw ApiException.serviceUnavailable(
              "The server is shutting down; the execution goes on: "
                  + "read its answer from GET /v1/threads/"
                  + threadId
                  + "/messages");
      case DELETED -> throw ThreadService.notFound(threadId);
    };
  }

  /** Cancels the thread's unfinished runs: the one working and any messages waiting behind it. */
  public CancelResponse cancel(Tenant tenant, String threadId) {
    ConversationThread thread = threads.find(tenant, threadId);
    String namespace = thread.getMetadata().getNamespace();
    boolean cancelled = false;
    for (Run active :
        threads.runsOf(thread).stream().filter(run -> !RunPhase.of(run).isTerminal()).toList()) {
      if (runs.requestCancel(namespace, active.getMetadata().getName())) {
        log.info("Run({}/{}) cancellation requested", namespace, active.getMetadata().getName());
        cancelled = true;
      }
    }
    return cancelled
        ? new CancelResponse(true, threadId, "Cancellation requested")
        : new CancelResponse(false, threadId, "Thread is not processing");
  }

  /** The outcome of a finished run, its answer and actions whole from the history store. */
  ExecutionView execution(Run run) {
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    boolean success = RunPhase.of(run) == RunPhase.COMPLETED;
    TokenCounts usage = TokenCounts.zero().plus(status.getUsage());
    ExecutionView.Error error =
        success
            ? null
            : Optional.ofNullable(status.getError())
                .map(failure -> new ExecutionView.Error(failure.getCode(), failure.getMessage()))
                .orElseGet(() ->
                    new ExecutionView.Error(null, "The execution " + RunPhase.of(run).value()));
    return new ExecutionView(
        success,
        Objects.requireNonNullElse(contents.response(run), ""),
        contents.actions(run),
        Objects.requireNonNullElse(status.getDurationMs(), 0L),
        new ExecutionView.Usage(usage.input(), usage.output()),
        error);
  }

  private static ScheduleRequest scheduleRequest(ThreadRequests.ScheduleInput input, String task) {
    return new ScheduleRequest(
        input.type(),
        input.name(),
        input.cronExpression(),
        input.timezone(),
        input.scheduledTime(),
        task,
        input.webhooks());
  }

  private Created schedule(
      Tenant tenant,
      ConversationThread thread,
      ScheduleCreator scheduler,
      ScheduleRequest request) {
    ThreadView view = threads.view(tenant, thread);
    try {
      ScheduleSummary summary =
          scheduler
              .create(tenant, view, request)
              .orElseThrow(ExecutionService::schedulesUnavailable);
      return new ScheduledThread(view, summary);
    } catch (RuntimeException failed) {
      discard(tenant, thread);
      throw failed;
    }
  }

  /** Undoes a thread whose creation could not be completed; the original failure is what counts. */
  private void discard(Tenant tenant, ConversationThread thread) {
    String threadId = ResourceIds.toId(thread.getMetadata().getName());
    try {
      threads.delete(tenant, threadId);
    } catch (RuntimeException cleanup) {
      log.warn(
          "Could not remove thread {} after a failed creation: {}", threadId, cleanup.toString());
    }
  }

  private static ApiException schedulesUnavailable() {
    return ApiException.badRequest("schedule", "cannot be used: schedules are not available yet");
  }
}
