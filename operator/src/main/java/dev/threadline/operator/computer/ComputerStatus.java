package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.FileDiff;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.usage.RunUsages;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The last status of a computer run: its events, outcome, answer, usage, cost, duration and diffs.
 */
public final class ComputerStatus {
  /**
   * The field of a computer run's routing {@code started} entry that holds what the call that
   * handed the run over cost (as a {@code usage} event's data): the worker's usage starts from it.
   */
  public static final String ROUTING_USAGE = "usage";

  private ComputerStatus() {}

  /** {@code usage} as a {@code usage} event's data (and the routing entry's) hold it. */
  public static Map<String, Object> usageData(Usage usage) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("input_tokens", usage.inputTokens());
    data.put("output_tokens", usage.outputTokens());
    data.put("cached_tokens", usage.cachedTokens());
    return data;
  }

  /**
   * What the routing call that handed the run over cost, from its routing entry; for a run routed
   * before that entry held it (or whose entry was dropped), what its status holds.
   */
  public static Usage routingUsage(RunStatus status) {
    return Objects.requireNonNullElse(status.getEvents(), List.<RunEvent>of()).stream()
        .filter(event -> "started".equals(event.getType()) && event.getData() != null)
        .map(event -> event.getData().path(ROUTING_USAGE))
        .filter(JsonNode::isObject)
        .findFirst()
        .map(ComputerStatus::usage)
        .orElseGet(() -> RunUsages.toUsage(status.getUsage()));
  }

  /**
   * Records the remaining events and the outcome. Returns false when the run has already ended (a
   * second operator got there first), so that nothing is written.
   */
  public static boolean finish(
      RunStatus status,
      List<RunnerEvent> pending,
      AgentOutcome outcome,
      Instant now,
      ModelPricing pricing) {
    if (status.getPhase() != null && RunPhase.fromValue(status.getPhase()).isTerminal()) {
      return false;
    }
    EventRecorder.record(status, pending);
    Instant begun = Timestamps.parse(status.getStartedAt()).orElse(now);
    status.setCompletedAt(Timestamps.format(now));
    status.setDurationMs(Math.max(0, Duration.between(begun, now).toMillis()));
    Usage usage =
        outcome.succeeded() ? usage(outcome.result().data().path("usage")) : lastUsage(status);
    status.setUsage(RunUsages.of(usage));
    status.setCost(
        status.getModel() == null
            ? 0.0
            : RunUsages.cost(pricing, status.getModel(), usage).doubleValue());
    if (outcome.succeeded()) {
      ObjectNode result = outcome.result().data();
      status.setPhase(RunPhase.COMPLETED.value());
      status.setResponse(result.path("response").asText(""));
      List<String> actions = new ArrayList<>();
      result.path("actions").forEach(action -> actions.add(action.asText()));
      status.setActions(actions);
      status.setDiffs(diffs(result.path("diffs")));
      status.setError(null);
      EventRecorder.record(status, List.of(outcome.result()));
    } else {
      status.setPhase(
          outcome.error() == RunErrorCode.CANCELLED
              ? RunPhase.CANCELLED.value()
              : RunPhase.FAILED.value());
      RunError error = new RunError();
      error.setCode(outcome.error().code());
      error.setMessage(outcome.message());
      status.setError(error);
      Map<String, Object> failed = new LinkedHashMap<>();
      failed.put("code", error.getCode());
      failed.put("message", error.getMessage());
      Instant time = outcome.runnerFailure() == null ? now : outcome.runnerFailure().time();
      RunEventLog.append(status, "failed", time, failed);
      if (outcome.runnerFailure() != null) {
        status.setRunnerSeq(
            Math.max(
                Objects.requireNonNullElse(status.getRunnerSeq(), 0L),
                outcome.runnerFailure().seq()));
      }
    }
    return true;
  }

  /**
   * Usage is reported cumulatively: a run that failed used what its last report says; before the
   * first report, what the routing call that handed it over cost.
   */
  static Usage lastUsage(RunStatus status) {
    List<RunEvent> events = Objects.requireNonNullElse(status.getEvents(), List.of());
    for (int i = events.size() - 1; i >= 0; i--) {
      if ("usage".equals(events.get(i).getType()) && events.get(i).getData() != null) {
        return usage(events.get(i).getData());
      }
    }
    return routingUsage(status);
  }

  static Usage usage(JsonNode data) {
    long input = Math.max(0, data.path("input_tokens").asLong(0));
    long cached = Math.min(input, Math.max(0, data.path("cached_tokens").asLong(0)));
    return new Usage(input, Math.max(0, data.path("output_tokens").asLong(0)), cached);
  }

  private static List<FileDiff> diffs(JsonNode entries) {
    List<FileDiff> diffs = new ArrayList<>();
    for (JsonNode entry : entries) {
      FileDiff diff = new FileDiff();
      diff.setPath(entry.path("path").asText());
      diff.setType(entry.path("type").asText(null));
      if (entry.hasNonNull("content")) {
        diff.setContent(
            EventRecorder.truncate(entry.get("content").asText(), EventRecorder.MAX_TEXT * 4));
      }
      if (entry.hasNonNull("additions")) {
        diff.setAdditions(entry.get("additions").asLong());
      }
      if (entry.hasNonNull("deletions")) {
        diff.setDeletions(entry.get("deletions").asLong());
      }
      diffs.add(diff);
    }
    return diffs;
  }
}
