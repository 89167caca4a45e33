package dev.threadline.api.stream;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one translation from a Run's event log (the runner protocol, as the operator stores it in the
 * history store) to the contract's stream events. One instance per stream: the contract's sequences
 * have events that appear once (computer.starting, response.started, the terminal pair), so it
 * remembers which it has sent.
 *
 * <p>Direct route: {@code message} → direct.response; {@code result} → response.completed; {@code
 * failed} → response.failed; each terminal event is followed by stream.completed. Computer route:
 * {@code started} → computer.starting; {@code planning} → a planning item, then response.started;
 * the other item types → response.item.completed (after response.started); {@code usage} is
 * cumulative and only its final value matters, carried by response.completed.
 *
 * <p>A message posted to an existing thread streams the contract's general form: it opens with
 * response.created, and a direct answer arrives as an output item (response.output_item.added, then
 * response.item.completed) rather than direct.response.
 */
public final class RunEventMapper {
  private static final Logger log = LoggerFactory.getLogger(RunEventMapper.class);

  static final String COMPUTER = "computer";

  private final String userId;
  private boolean responseCreated;
  private boolean computerStarting;
  private boolean responseStarted;
  private boolean answered;
  private boolean finished;

  public RunEventMapper(String userId) {
    this.userId = userId;
  }

  /** Whether the terminal events (and stream.completed) have been produced. */
  public boolean finished() {
    return finished;
  }

  /** The stream events for one run event; empty for events a client does not see. */
  public List<StreamEvent> map(Run run, LogEvent event) {
    if (finished) {
      return List.of();
    }
    RunIds ids = RunIds.of(run);
    EventData data = new EventData(event.data());
    boolean computer = isComputer(run, data);
    List<StreamEvent> events = new ArrayList<>();
    ensureResponseCreated(run, event, data, ids, events);
    String type = Objects.requireNonNullElse(event.type(), "");
    switch (type) {
      case "started" -> {
        if (computer) {
          ensureComputerStarting(ids, events);
        }
      }
      case "planning" -> {
        if (computer) {
          ensureComputerStarting(ids, events);
        }
        events.add(
            StreamEvents.itemCompleted(
                ResponseItems.planning(
                    ids.itemId("planning", event), data.text("text").orElse(""))));
        if (computer) {
          ensureResponseStarted(run, event, data, ids, events);
        }
      }
      case "message" -> {
        String text = data.text("text", "content").orElse("");
        if (computer) {
          beforeItem(run, event, data, ids, events);
          events.add(
              StreamEvents.itemCompleted(
                  ResponseItems.message(
                      ids.itemId("msg", event), data.text("role").orElse("assistant"), text)));
        } else {
          answer(run, ids, ids.itemId("msg", event), text, events);
        }
      }
      case "reasoning", "setup", "error", "tool_call", "file_change" -> {
        if (computer) {
          beforeItem(run, event, data, ids, events);
        }
        events.add(StreamEvents.itemCompleted(item(type, ids, event, data)));
      }
      case "approval_requested" -> {
        beforeItem(run, event, data, ids, events);
        events.add(
            StreamEvents.approvalRequested(
                ids.runId(),
                ids.threadId(),
                data.text("callId").orElse(""),
                data.text("kind").orElse("approval"),
                data.text("tool").orElse(""),
                data.json("arguments"),
                data.text("reason").orElse(null),
                data.text("question").orElse(null)));
      }
      case "usage" -> {
        // Cumulative counts after each model call: the final figure arrives with the result.
      }
      case "result" -> finish(run, Optional.of(event), events);
      case "failed" -> fail(run, Optional.of(event), data, events);
      default ->
          log.debug("Run {} has an event of unknown type {}; not streamed", ids.runId(), type);
    }
    return events;
  }

  /**
   * What a finished run still owes the stream when its log lacks the terminal event (written by a
   * producer that keeps none): built from the run's status. Empty when the run is not finished or
   * the terminal events were already produced.
   */
  public List<StreamEvent> finish(Run run) {
    RunPhase phase = RunPhase.of(run);
    if (finished || !phase.isTerminal()) {
      return List.of();
    }
    List<StreamEvent> events = new ArrayList<>();
    if (phase == RunPhase.COMPLETED) {
      finish(run, Optional.empty(), events);
    } else {
      fail(run, Optional.empty(), new EventData(null), events);
    }
    return events;
  }

  private void finish(Run run, Optional<LogEvent> event, List<StreamEvent> events) {
    RunIds ids = RunIds.of(run);
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    EventData data = new EventData(event.map(LogEvent::data).orElse(null));
    ensureResponseCreated(run, event.orElse(null), data, ids, events);
    if (!isComputer(run, data) && !answered) {
      // The answer was not in the log: the result's whole text, else the status's preview.
      data.text("response")
          .or(() -> Optional.ofNullable(status.getResponse()))
          .ifPresent(response ->
              answer(
                  run,
                  ids,
                  "msg_" + ids.runId().substring(ids.runId().indexOf('_') + 1),
                  response,
                  events));
    }
    EventData usage = data.object("usage");
    TokenCounts recorded = status.getUsage();
    long input =
        Optional.ofNullable(recorded)
            .map(TokenCounts::getInputTokens)
            .or(() -> usage.number("inputTokens", "input_tokens"))
            .orElse(0L);
    long output =
        Optional.ofNullable(recorded)
            .map(TokenCounts::getOutputTokens)
            .or(() -> usage.number("outputTokens", "output_tokens"))
            .orElse(0L);
    long cached =
        Optional.ofNullable(recorded)
            .map(TokenCounts::getCachedTokens)
            .or(() -> usage.number("cachedTokens", "cached_tokens"))
            .orElse(0L);
    events.add(
        StreamEvents.responseCompleted(
            ids.runId(),
            ids.threadId(),
            durationMs(status, data),
            input,
            output,
            cached,
            endedAt(run, event)));
    end(events);
  }

  private void fail(Run run, Optional<LogEvent> event, EventData data, List<StreamEvent> events) {
    RunIds ids = RunIds.of(run);
    ensureResponseCreated(run, event.orElse(null), data, ids, events);
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    // The operator nests {code, message} under "error"; the runner writes them at the top.
    EventData error = data.object("error").isEmpty() ? data : data.object("error");
    Optional<RunError> recorded = Optional.ofNullable(status.getError());
    String code =
        recorded
            .map(RunError::getCode)
            .or(() -> error.text("code"))
            .orElse(
                RunPhase.of(run) == RunPhase.CANCELLED
                    ? RunErrorCode.CANCELLED.code()
                    : RunErrorCode.EXECUTION_FAILED.code());
    String message =
        recorded
            .map(RunError::getMessage)
            .or(() -> error.text("message"))
            .orElse("The execution failed");
    events.add(
        StreamEvents.responseFailed(
            ids.runId(),
            ids.threadId(),
            code,
            message,
            durationMs(status, data),
            endedAt(run, event)));
    end(events);
  }

  /** The direct answer: direct.response for a new thread, an output item for a follow-up. */
  private void answer(Run run, RunIds ids, String itemId, String text, List<StreamEvent> events) {
    answered = true;
    if (postedToThread(run)) {
      events.add(StreamEvents.outputItemAdded(ResponseItems.messageStarted(itemId, "assistant")));
      events.add(StreamEvents.itemCompleted(ResponseItems.message(itemId, "assistant", text)));
    } else {
      events.add(StreamEvents.directResponse(text, ids.threadId(), userId));
    }
  }

  private void ensureResponseCreated(
      Run run, LogEvent event, EventData data, RunIds ids, List<StreamEvent> events) {
    if (responseCreated || !postedToThread(run)) {
      return;
    }
    responseCreated = true;
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    String model = Optional.ofNullable(status.getModel()).or(() -> data.text("model")).orElse(null);
    long createdAt =
        Optional.ofNullable(event)
            .map(LogEvent::time)
            .flatMap(Timestamps::parse)
            .or(() -> Timestamps.parse(run.getMetadata().getCreationTimestamp()))
            .map(Instant::getEpochSecond)
            .orElse(0L);
    events.add(StreamEvents.responseCreated(ids.runId(), ids.threadId(), model, createdAt));
  }

  /**
   * The form is the run's, not the request's: every stream of a run, resumed or not, is the same.
   */
  private static boolean postedToThread(Run run) {
    return run.getMetadata().getAnnotations() != null
        && "true".equals(run.getMetadata().getAnnotations().get(Labels.POSTED_TO_THREAD));
  }

  private void end(List<StreamEvent> events) {
    events.add(StreamEvents.streamCompleted());
    finished = true;
  }

  private void beforeItem(
      Run run, LogEvent event, EventData data, RunIds ids, List<StreamEvent> events) {
    ensureComputerStarting(ids, events);
    ensureResponseStarted(run, event, data, ids, events);
  }

  private void ensureComputerStarting(RunIds ids, List<StreamEvent> events) {
    if (!computerStarting) {
      computerStarting = true;
      events.add(StreamEvents.computerStarting(ids.threadId(), userId));
    }
  }

  private void ensureResponseStarted(
      Run run, LogEvent event, EventData data, RunIds ids, List<StreamEvent> events) {
    if (responseStarted) {
      return;
    }
    responseStarted = true;
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    String model = Optional.ofNullable(status.getModel()).or(() -> data.text("model")).orElse(null);
    long createdAt =
        Timestamps.parse(status.getStartedAt())
            .or(() -> Timestamps.parse(event.time()))
            .or(() -> Timestamps.parse(run.getMetadata().getCreationTimestamp()))
            .map(Instant::getEpochSecond)
            .orElse(0L);
    events.add(
        StreamEvents.responseStarted(
            ids.runId(), ids.threadId(), userId, ids.workspaceId(), model, createdAt));
  }

  private static ObjectNode item(String type, RunIds ids, LogEvent event, EventData data) {
    return switch (type) {
      case "reasoning" ->
          ResponseItems.reasoning(ids.itemId("reasoning", event), data.text("text").orElse(""));
      case "setup" -> ResponseItems.setup(ids.itemId("setup", event), data.text("text").orElse(""));
      case "error" ->
          ResponseItems.error(ids.itemId("error", event), data.text("message", "text").orElse(""));
      case "file_change" ->
          ResponseItems.fileChange(
              ids.itemId("file", event),
              data.text("path").orElse(""),
              data.text("change", "type").orElse("modify"),
              data.number("additions").orElse(0L),
              data.number("deletions").orElse(0L));
      case "tool_call" -> {
        EventData tool = data.object("tool");
        yield ResponseItems.toolCall(
            ids.itemId("tool", event),
            data.text("status").orElse(ResponseItems.COMPLETED),
            tool.text("type").orElse("command_execution"),
            tool.text("name").orElse(null),
            tool.text("command").orElse(null),
            tool.text("path").orElse(null),
            tool.text("output").orElse(""),
            tool.number("exit_code", "exitCode").orElse(null),
            data.number("duration_ms", "durationMs")
                .or(() -> data.object("metadata").number("duration_ms"))
                .orElse(0L));
      }
      default -> throw new IllegalArgumentException("not an item type: " + type);
    };
  }

  /** The route decides the sequence; before the status says, a started event may. */
  private static boolean isComputer(Run run, EventData data) {
    String route = Optional.ofNullable(run.getStatus()).map(RunStatus::getRoute).orElse(null);
    return COMPUTER.equals(route)
        || (route == null && data.text("route").filter(COMPUTER::equals).isPresent());
  }

  private static long durationMs(RunStatus status, EventData data) {
    return Optional.ofNullable(status.getDurationMs())
        .or(() -> data.number("durationMs", "duration_ms"))
        .orElse(0L);
  }

  private static long endedAt(Run run, Optional<LogEvent> event) {
    return Optional.ofNullable(run.getStatus())
        .map(RunStatus::getCompletedAt)
        .flatMap(Timestamps::parse)
        .or(() -> event.map(LogEvent::time).flatMap(Timestamps::parse))
        .or(() -> Timestamps.parse(run.getMetadata().getCreationTimestamp()))
        .map(Instant::getEpochSecond)
        .orElse(0L);
  }
}
