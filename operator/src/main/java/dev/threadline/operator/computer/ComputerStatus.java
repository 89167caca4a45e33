package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.StoredDiff;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunContent;
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
 * The last status of a computer run: its outcome, answer preview, usage, cost, duration and how
 * many files it changed; its events, whole answer and diffs go to the history store first.
 */
public final class ComputerStatus {
  /**
   * The field of a computer run's routing {@code started} entry that holds what the call that
   * handed the run over cost (as a {@code usage} event's data); the routing write also puts it in
   * {@code status.usage}, from which the worker's usage starts.
   */
  public static final String ROUTING_USAGE = "usage";

  private final EventRecorder recorder;
  private final RunContent content;

  public ComputerStatus(EventRecorder recorder) {
    this.recorder = recorder;
    this.content = new RunContent(recorder.log().history());
  }

  public EventRecorder recorder() {
    return recorder;
  }

  /** {@code usage} as a {@code usage} event's data (and the routing entry's) hold it. */
  public static Map<String, Object> usageData(Usage usage) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("input_tokens", usage.inputTokens());
    data.put("output_tokens", usage.outputTokens());
    data.put("cached_tokens", usage.cachedTokens());
    return data;
  }

  /**
   * What the routing call that handed the run over cost, from its routing entry (zero: nothing).
   */
  public Usage routingUsage(Run run) {
    return recorder
        .log()
        .data(run, "started")
        .map(data -> data.path(ROUTING_USAGE))
        .filter(JsonNode::isObject)
        .map(ComputerStatus::usage)
        .orElse(Usage.ZERO);
  }

  /**
   * Usage is reported cumulatively, and the worker keeps the last report in {@code status.usage}
   * (before the first, what the call that handed the run over cost: {@link #routingUsage}).
   */
  public static Usage lastUsage(RunStatus status) {
    return RunUsages.toUsage(status.getUsage());
  }

  /**
   * Records the remaining events, the whole answer and the diffs in the history store, then the
   * outcome in {@code status}. Returns false when the run has already ended (a second operator got
   * there first), so that nothing is written.
   */
  public boolean finish(
      Run run,
      RunStatus status,
      List<RunnerEvent> pending,
      AgentOutcome outcome,
      Instant now,
      ModelPricing pricing) {
    if (status.getPhase() != null && RunPhase.fromValue(status.getPhase()).isTerminal()) {
      return false;
    }
    recorder.record(run, status, pending);
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
      String response = result.path("response").asText("");
      List<String> actions = new ArrayList<>();
      result.path("actions").forEach(action -> actions.add(action.asText()));
      List<StoredDiff> diffs = diffs(result.path("diffs"));
      record(run, diffs);
      content.recordResponse(run, response);
      recorder.record(run, status, List.of(outcome.result()));
      status.setPhase(RunPhase.COMPLETED.value());
      RunContent.answer(status, response, actions);
      status.setDiffCount((long) diffs.size());
      status.setError(null);
    } else {
      status.setPhase(
          outcome.error() == RunErrorCode.CANCELLED
              ? RunPhase.CANCELLED.value()
              : RunPhase.FAILED.value());
      RunError error = new RunError();
      error.setCode(outcome.error().code());
      error.setMessage(RunContent.errorMessage(outcome.message()));
      status.setError(error);
      Map<String, Object> failed = new LinkedHashMap<>();
      failed.put("code", error.getCode());
      failed.put("message", outcome.message());
      Instant time = outcome.runnerFailure() == null ? now : outcome.runnerFailure().time();
      recorder.log().append(run, status, "failed", time, failed);
    }
    return true;
  }

  /**
   * Ends a run whose worker ended with its process, so that no worker will finish it (the local
   * mode's restart after a stop or a kill): what it spent is its last usage report in the log, also
   * one the worker stored but did not announce before it died, and it fails with {@code message} as
   * any failed run does ({@link #finish}: the {@code failed} event, which announces every event
   * before it, then the status). Returns false when the run has already ended.
   */
  public boolean interrupt(
      Run run, RunStatus status, String message, Instant now, ModelPricing pricing) {
    recorder
        .log()
        .history()
        .events()
        .latestOfType(RunEventLog.key(run), RunnerEventType.USAGE.wireName())
        .flatMap(report -> recorder.log().data(run, report.key()))
        .map(ComputerStatus::usage)
        .ifPresent(spent -> status.setUsage(RunUsages.of(spent)));
    return finish(
        run,
        status,
        List.of(),
        AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, message),
        now,
        pricing);
  }

  /** A usage report's data (cumulative) as a {@link Usage}. */
  public static Usage usage(JsonNode data) {
    long input = Math.max(0, data.path("input_tokens").asLong(0));
    long cached = Math.min(input, Math.max(0, data.path("cached_tokens").asLong(0)));
    return new Usage(input, Math.max(0, data.path("output_tokens").asLong(0)), cached);
  }

  /**
   * Records the workspace changes of a run that ends without a result (a newer message interrupted
   * it, keeping what it did), as a completed run's are: {@code entries} are diff entries as a
   * result carries them.
   */
  public void recordDiffs(Run run, List<? extends JsonNode> entries) {
    record(run, diffs(JsonNodeFactory.instance.arrayNode().addAll(entries)));
  }

  private void record(Run run, List<StoredDiff> diffs) {
    recorder
        .log()
        .history()
        .diffs()
        .record(
            RunEventLog.key(run),
            Objects.requireNonNullElse(run.getSpec().getSequence(), 0L),
            diffs);
  }

  private List<StoredDiff> diffs(JsonNode entries) {
    List<StoredDiff> diffs = new ArrayList<>();
    for (JsonNode entry : entries) {
      diffs.add(
          new StoredDiff(
              entry.path("path").asText(),
              entry.path("type").asText(null),
              entry.hasNonNull("content")
                  ? EventRecorder.truncate(entry.get("content").asText(), recorder.outputLimit())
                  : null,
              entry.hasNonNull("additions") ? entry.get("additions").asLong() : null,
              entry.hasNonNull("deletions") ? entry.get("deletions").asLong() : null));
    }
    return diffs;
  }
}
