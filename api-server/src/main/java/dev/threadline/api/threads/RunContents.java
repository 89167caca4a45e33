package dev.threadline.api.threads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.api.stream.LogEvent;
import dev.threadline.api.stream.RunLog;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.history.RunRecord;
import dev.threadline.history.StoredDiff;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The conversation content of a thread's runs, from the history store: whole messages and answers
 * (a Run's spec and status carry bounded previews), every event, the whole list of actions and the
 * files changed. The runs themselves come from {@link ThreadService#runsOf}.
 */
final class RunContents {
  private final History history;
  private final RunLog log;

  RunContents(History history, RunLog log) {
    this.history = history;
    this.log = log;
  }

  /** The recorded runs of a thread, by run name. */
  Map<String, RunRecord> recordsOf(String namespace, String threadName) {
    return history.runs().ofThread(namespace, threadName).stream()
        .collect(Collectors.toMap(record -> record.key().run(), Function.identity()));
  }

  /**
   * The run's whole message: as recorded, else (a run not recorded yet) from its spec, whose
   * message is whole unless it names a stored body.
   */
  String message(Run run, RunRecord record) {
    if (record != null) {
      return record.message();
    }
    RunSpec spec = run.getSpec();
    if (spec.getMessageRef() != null) {
      return history
          .messageBodies()
          .read(run.getMetadata().getNamespace(), spec.getMessageRef())
          .orElse(spec.getMessage());
    }
    return spec.getMessage();
  }

  /** The run's whole answer: as recorded, else the status's preview (null when none). */
  String response(Run run, RunRecord record) {
    if (record != null && record.response() != null) {
      return record.response();
    }
    return Optional.ofNullable(run.getStatus()).map(RunStatus::getResponse).orElse(null);
  }

  /** The run's answer, looked up by itself (for one run). */
  String response(Run run) {
    return response(
        run, history.runs().find(run.getMetadata().getNamespace(), name(run)).orElse(null));
  }

  /** Every event of the run, oldest first. */
  List<LogEvent> events(Run run) {
    return log.all(run);
  }

  /**
   * The run's actions in full, from its result event (the status keeps a bounded list); the
   * status's list when the log has none.
   */
  List<String> actions(Run run) {
    Optional<JsonNode> listed =
        log.latest(run, "result")
            .map(event -> event.data().path("actions"))
            .filter(JsonNode::isArray);
    if (listed.isEmpty()) {
      return Objects.requireNonNullElse(
          Optional.ofNullable(run.getStatus()).map(RunStatus::getActions).orElse(null), List.of());
    }
    List<String> actions = new ArrayList<>();
    for (JsonNode action : listed.get()) {
      if (action.isTextual()) {
        actions.add(action.textValue());
      }
    }
    return actions;
  }

  /** Per path, the latest change the thread's runs made, in path order. */
  Collection<StoredDiff> latestDiffs(String namespace, String threadName) {
    return history.diffs().latestOfThread(namespace, threadName).values();
  }

  private static String name(Run run) {
    return run.getMetadata().getName();
  }
}
