package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.common.SuccessResponse;
import dev.threadline.api.idempotency.IdempotencyKeys;
import dev.threadline.api.idempotency.IdempotentRequests;
import dev.threadline.api.idempotency.RequestFingerprint;
import dev.threadline.api.idempotency.StoredResult;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.stream.EventCursor;
import dev.threadline.api.stream.RunResumption;
import dev.threadline.api.stream.RunStreams;
import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.api.stream.StreamHeaders;
import dev.threadline.api.webhooks.WebhookReplays;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/threads}: threads, their messages, logs and diffs. A message answers as a Server-Sent
 * Events stream, or with {@code stream: false} as one JSON body once the execution is over; both
 * are produced off the request thread, so a long execution holds no servlet thread.
 */
@RestController
@RequestMapping(path = "/v1/threads", produces = MediaType.APPLICATION_JSON_VALUE)
class ThreadController {
  private static final String JSON = MediaType.APPLICATION_JSON_VALUE;
  private static final String EVENTS = MediaType.TEXT_EVENT_STREAM_VALUE;

  private final ThreadService threads;
  private final ExecutionService executions;
  private final RunStreams streams;
  private final RunResumption resumption;
  private final IdempotentRequests idempotency;
  private final WebhookReplays scheduleWebhookSecrets;
  private final ThreadReader reader;
  private final ApprovalAnswers approvals;

  ThreadController(
      ThreadService threads,
      ExecutionService executions,
      ThreadReader reader,
      RunStreams streams,
      RunResumption resumption,
      IdempotentRequests idempotency,
      WebhookSecrets webhookSecrets,
      ApprovalAnswers approvals) {
    this.approvals = approvals;
    this.idempotency = idempotency;
    this.scheduleWebhookSecrets = new WebhookReplays(webhookSecrets, "schedule");
    this.threads = threads;
    this.executions = executions;
    this.reader = reader;
    this.streams = streams;
    this.resumption = resumption;
  }

  /**
   * 201 with {@code {thread}} (no messages) or {@code {thread, schedule}}; with messages an SSE
   * stream (200, as EventSource clients require) or, with {@code stream: false}, 201 with {@code
   * {thread, execution}}. A webhook secret generated for the schedule is not kept in the
   * idempotency record: a repeat shows the one the schedule's webhooks Secret holds.
   */
  @PostMapping(
      consumes = JSON,
      produces = {JSON, EVENTS})
  Object create(
      Tenant tenant,
      @RequestBody(required = false) ThreadRequests.Create request,
      @RequestHeader(name = StreamHeaders.LAST_EVENT_ID, required = false) String lastEventId,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String idempotencyKey,
      HttpServletRequest http,
      HttpServletResponse response) {
    Optional<EventCursor> reconnect = EventCursor.of(lastEventId, null);
    if (reconnect.isPresent()) {
      // A streaming client reconnecting by repeating its POST: resume, never start a second run.
      return resumption.resumeRun(
          response,
          tenant.userId(),
          tenant.namespace(),
          reconnect.get(),
          name -> threads.leftRun(tenant, name));
    }
    return idempotency.execute(
        tenant,
        idempotencyKey,
        () -> RequestFingerprint.of(http, request),
        () ->
            switch (executions.createThread(tenant, request)) {
              case ExecutionService.EmptyThread empty ->
                  json(
                      ResponseEntity.created(location(empty.thread().id()))
                          .body(new ThreadResponse(empty.thread())));
              case ExecutionService.ScheduledThread scheduled ->
                  json(
                      ResponseEntity.created(location(scheduled.thread().id()))
                          .body(
                              new ThreadScheduleResponse(
                                  scheduled.thread(), scheduled.schedule())));
              case ExecutionService.StartedRun started ->
                  new IdempotentRequests.Recorded<>(
                      respondCreated(tenant, started, response), startedRun(started));
            },
        result ->
            repeat(
                tenant,
                result,
                response,
                run ->
                    respondCreated(
                        tenant,
                        executions.rejoin(
                            tenant,
                            run.runName(),
                            request == null || !Boolean.FALSE.equals(request.stream())),
                        response)));
  }

  /** A run's answer to the request that created its thread: thread.created first. */
  private Object respondCreated(
      Tenant tenant, ExecutionService.StartedRun started, HttpServletResponse response) {
    // Running by definition: its first run was just created (the operator may not have seen it).
    // Only the id and environment are shown: no rollup of the thread's runs is needed.
    ConversationThread thread = started.thread();
    return respond(
        tenant,
        started,
        response,
        List.of(
            StreamEvents.threadCreated(
                ResourceIds.toId(thread.getMetadata().getName()),
                ThreadState.RUNNING.value(),
                ThreadMapper.environmentIdOf(thread))),
        true);
  }

  private IdempotentRequests.Recorded<Object> json(ResponseEntity<?> response) {
    return new IdempotentRequests.Recorded<>(
        response, idempotency.record(response, scheduleWebhookSecrets));
  }

  private static StoredResult startedRun(ExecutionService.StartedRun started) {
    return new StoredResult.StartedRun(
        started.run().getMetadata().getNamespace(), started.run().getMetadata().getName());
  }

  /**
   * A repeat of an idempotent request: the recorded JSON, or the first request's run joined from
   * its start.
   */
  private Object repeat(
      Tenant tenant,
      StoredResult result,
      HttpServletResponse response,
      java.util.function.Function<StoredResult.StartedRun, Object> rejoin) {
    if (result instanceof StoredResult.StartedRun run) {
      response.setHeader(IdempotentRequests.REPLAYED_HEADER, "true");
      return rejoin.apply(run);
    }
    return idempotency.replay(tenant, result, scheduleWebhookSecrets);
  }

  @GetMapping
  ListEnvelope<ThreadSummary> list(
      Tenant tenant,
      PageRequest page,
      @RequestParam(required = false) String environmentId,
      @RequestParam(required = false) String agentId,
      @RequestParam(required = false) String appId,
      @RequestParam(required = false) String status,
      @RequestParam(required = false) String scheduleId) {
    return threads.list(
        tenant,
        new ThreadService.ThreadFilter(environmentId, agentId, appId, status, scheduleId),
        page);
  }

  @GetMapping("/{threadId}")
  ThreadResponse get(Tenant tenant, @PathVariable String threadId) {
    return new ThreadResponse(threads.get(tenant, threadId));
  }

  @PatchMapping(path = "/{threadId}", consumes = JSON)
  ThreadResponse update(
      Tenant tenant,
      @PathVariable String threadId,
      @RequestBody(required = false) ThreadRequests.Update request) {
    return new ThreadResponse(threads.update(tenant, threadId, request));
  }

  @DeleteMapping("/{threadId}")
  SuccessResponse delete(Tenant tenant, @PathVariable String threadId) {
    threads.delete(tenant, threadId);
    return SuccessResponse.OK;
  }

  /**
   * An SSE stream without {@code thread.created}; {@code stream: false} gives 200 {@code {thread,
   * execution}}.
   */
  @PostMapping(
      path = "/{threadId}/messages",
      consumes = JSON,
      produces = {JSON, EVENTS})
  Object postMessage(
      Tenant tenant,
      @PathVariable String threadId,
      @RequestBody(required = false) ThreadRequests.PostMessage request,
      @RequestHeader(name = StreamHeaders.LAST_EVENT_ID, required = false) String lastEventId,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String idempotencyKey,
      HttpServletRequest http,
      HttpServletResponse response) {
    Optional<EventCursor> reconnect = EventCursor.of(lastEventId, null);
    if (reconnect.isPresent()) {
      ConversationThread thread = threads.find(tenant, threadId);
      return resumption.resumeThread(
          response,
          tenant.userId(),
          threadId,
          threads.runsOf(thread),
          reconnect,
          name -> threads.leftRun(tenant, name));
    }
    return idempotency.execute(
        tenant,
        idempotencyKey,
        () -> RequestFingerprint.of(http, request),
        () -> {
          ExecutionService.StartedRun started = executions.postMessage(tenant, threadId, request);
          return new IdempotentRequests.Recorded<>(
              respond(tenant, started, response, List.of(), false), startedRun(started));
        },
        result ->
            repeat(
                tenant,
                result,
                response,
                run ->
                    respond(
                        tenant,
                        executions.rejoin(
                            tenant,
                            run.runName(),
                            request == null || !Boolean.FALSE.equals(request.stream())),
                        response,
                        List.of(),
                        false)));
  }

  /**
   * The stream of the thread's latest run (or of the run a cursor names), from its start or after
   * {@code Last-Event-ID} / {@code ?after=}; live until the run ends. Not in the contract: it makes
   * streams resumable.
   */
  @GetMapping(
      path = "/{threadId}/stream",
      produces = {EVENTS, JSON})
  Object stream(
      Tenant tenant,
      @PathVariable String threadId,
      @RequestHeader(name = StreamHeaders.LAST_EVENT_ID, required = false) String lastEventId,
      @RequestParam(required = false) String after,
      HttpServletResponse response) {
    ConversationThread thread = threads.find(tenant, threadId);
    return resumption.resumeThread(
        response,
        tenant.userId(),
        threadId,
        threads.runsOf(thread),
        EventCursor.of(lastEventId, after),
        name -> threads.leftRun(tenant, name));
  }

  @GetMapping("/{threadId}/messages")
  ListEnvelope<MessageView> messages(
      Tenant tenant,
      @PathVariable String threadId,
      PageRequest page,
      @RequestParam(required = false) String order) {
    return reader.messages(tenant, threadId, page, order);
  }

  @GetMapping("/{threadId}/logs")
  ThreadLogResponse logs(Tenant tenant, @PathVariable String threadId) {
    return reader.logs(tenant, threadId);
  }

  @GetMapping("/{threadId}/diffs")
  DiffsResponse diffs(Tenant tenant, @PathVariable String threadId) {
    return reader.diffs(tenant, threadId);
  }

  /**
   * Answers the call the thread's run waits on (beyond the contract): 200 with the recorded answer,
   * the same when posted again; 409 when nothing waits on that call.
   */
  @PostMapping(path = "/{threadId}/approvals", consumes = JSON)
  ApprovalView approve(
      Tenant tenant,
      @PathVariable String threadId,
      @RequestBody(required = false) ApprovalRequest body) {
    return approvals.answer(tenant, threadId, body);
  }

  @PostMapping("/{threadId}/cancel")
  CancelResponse cancel(Tenant tenant, @PathVariable String threadId) {
    return executions.cancel(tenant, threadId);
  }

  private Object respond(
      Tenant tenant,
      ExecutionService.StartedRun started,
      HttpServletResponse response,
      List<StreamEvent> prelude,
      boolean created) {
    if (started.stream()) {
      return streams.open(
          response,
          new RunStreams.StreamStart(
              started.run().getMetadata().getNamespace(),
              started.run().getMetadata().getName(),
              tenant.userId(),
              prelude,
              started.after(),
              Optional.empty()));
    }
    return (Callable<ResponseEntity<ThreadExecutionResponse>>)
        () -> {
          ThreadExecutionResponse result = executions.awaitExecution(tenant, started);
          return created
              ? ResponseEntity.created(location(result.thread().id())).body(result)
              : ResponseEntity.ok(result);
        };
  }

  private static URI location(String threadId) {
    return URI.create("/v1/threads/" + threadId);
  }
}
