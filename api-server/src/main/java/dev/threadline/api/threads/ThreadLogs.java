package dev.threadline.api.threads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.threadline.api.stream.LogEvent;
import dev.threadline.core.threads.ThreadTotals;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.RunRecord;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The thread log, read from each run's message and event log in the history store: one line per
 * thing that happened, in order. Cumulative usage counts are left out (the totals carry them).
 */
final class ThreadLogs {
  static final String INFO = "info";
  static final String WARNING = "warning";
  static final String ERROR = "error";

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private ThreadLogs() {}

  /** {@code runs} in sequence order and of one thread; {@code totals} the thread's rollup. */
  static ThreadLogResponse of(
      String threadId, List<Run> runs, ThreadTotals totals, RunContents contents) {
    List<LogEntry> logs = new ArrayList<>();
    long duration = 0;
    Map<String, RunRecord> records =
        runs.isEmpty()
            ? Map.of()
            : contents.recordsOf(
                runs.getFirst().getMetadata().getNamespace(),
                runs.getFirst().getSpec().getThread());
    for (Run run : runs) {
      logs.add(
          new LogEntry(
              clock(run.getMetadata().getCreationTimestamp()),
              contents.message(run, records.get(run.getMetadata().getName())),
              INFO,
              "user_message"));
      RunStatus status = run.getStatus();
      if (status != null) {
        duration += Objects.requireNonNullElse(status.getDurationMs(), 0L);
      }
      for (LogEvent event : contents.events(run)) {
        entry(event).ifPresent(logs::add);
      }
    }
    return new ThreadLogResponse(
        logs,
        threadId,
        totals.state().value(),
        Long.toString(duration),
        totals.totalCost(),
        totals.tokens().input(),
        totals.tokens().output());
  }

  /** The log line of one event; empty for events not worth a line. */
  static Optional<LogEntry> entry(LogEvent event) {
    JsonNode data = event.data() == null ? MissingNode.getInstance() : event.data();
    String time = clock(event.time());
    String type = Objects.requireNonNullElse(event.type(), "");
    return Optional.ofNullable(
        switch (type) {
          case "started" -> new LogEntry(time, started(data), INFO, "run_started");
          case "planning" -> new LogEntry(time, text(data, "text"), INFO, "planning");
          case "reasoning" -> new LogEntry(time, text(data, "text"), INFO, "reasoning");
          case "message" -> new LogEntry(time, text(data, "text"), INFO, "agent_message");
          case "setup" -> new LogEntry(time, text(data, "text"), INFO, "setup");
          case "error" -> new LogEntry(time, text(data, "message"), ERROR, "error");
          case "tool_call" ->
              new LogEntry(
                  time,
                  toolCall(data),
                  "failed".equals(text(data, "status")) ? WARNING : INFO,
                  "tool_call");
          case "file_change" -> new LogEntry(time, fileChange(data), INFO, "file_change");
          case "approval_requested" ->
              new LogEntry(time, approvalRequested(data), INFO, "approval_requested");
          case "result" -> new LogEntry(time, completed(data), INFO, "run_completed");
          case "failed" -> new LogEntry(time, failed(data), ERROR, "run_failed");
          default -> null;
        });
  }

  private static String started(JsonNode data) {
    String model = text(data, "model");
    String suffix = model.isEmpty() ? "" : " (model " + model + ")";
    String route = text(data, "route");
    if (route.isEmpty()) {
      return "Agent started" + suffix;
    }
    String reason = text(data, "reason");
    return "Routed to " + route + (reason.isEmpty() ? "" : ": " + reason) + suffix;
  }

  private static String approvalRequested(JsonNode data) {
    String callId = text(data, "callId");
    if ("question".equals(text(data, "kind"))) {
      return "Waiting for an answer (" + callId + "): " + text(data, "question");
    }
    String command = text(data.path("arguments"), "command");
    return "Waiting for approval of "
        + text(data, "tool")
        + (command.isEmpty() ? "" : " `" + command + "`")
        + " ("
        + callId
        + "): "
        + text(data, "reason");
  }

  private static String toolCall(JsonNode data) {
    JsonNode tool = data.path("tool");
    String command = text(tool, "command");
    String what =
        !command.isEmpty()
            ? "$ " + command
            : (text(tool, "name").isEmpty() ? text(tool, "type") : text(tool, "name"))
                + (text(tool, "path").isEmpty() ? "" : " " + text(tool, "path"));
    StringBuilder line = new StringBuilder(what);
    if (tool.path("exit_code").isNumber()) {
      line.append(" → exit ").append(tool.path("exit_code").asLong());
    }
    JsonNode duration = data.path("duration_ms");
    if (duration.isNumber()) {
      line.append(" (").append(duration.asLong()).append(" ms)");
    }
    return line.toString();
  }

  private static String fileChange(JsonNode data) {
    String path = text(data, "path");
    return switch (text(data, "change")) {
      case "create" -> "Created " + path + " (+" + data.path("additions").asLong() + ")";
      case "delete" -> "Deleted " + path;
      default ->
          "Modified "
              + path
              + " (+"
              + data.path("additions").asLong()
              + " -"
              + data.path("deletions").asLong()
              + ")";
    };
  }

  private static String completed(JsonNode data) {
    long duration = number(data, "durationMs", "duration_ms");
    JsonNode usage = data.path("usage");
    return "Completed in "
        + duration
        + " ms ("
        + number(usage, "inputTokens", "input_tokens")
        + " input, "
        + number(usage, "outputTokens", "output_tokens")
        + " output tokens)";
  }

  private static String failed(JsonNode data) {
    JsonNode error = data.path("error").isObject() ? data.path("error") : data;
    String code = text(error, "code");
    return "Failed" + (code.isEmpty() ? "" : " (" + code + ")") + ": " + text(error, "message");
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() ? value.textValue() : "";
  }

  private static long number(JsonNode node, String camel, String snake) {
    return node.path(camel).isNumber() ? node.path(camel).asLong() : node.path(snake).asLong(0);
  }

  private static String clock(String timestamp) {
    return Timestamps.parse(timestamp).map(CLOCK::format).orElse("");
  }
}
