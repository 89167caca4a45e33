package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.run.RunEventLog;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Records the runner's events in a Run's event log, in the runner's order, each once: an event is
 * recorded only when its runner {@code seq} is above {@code status.runnerSeq}, which is written in
 * the same status update. The log gets the operator's own seq (one ordered log with the operator's
 * {@code started} first); the runner's seq lives on only as that high-water mark.
 *
 * <p>Texts are bounded so that the Run stays far below the API server's object size limit: a
 * command's output keeps its first {@value #MAX_OUTPUT} characters, any other text its first
 * {@value #MAX_TEXT}, with a note of what was cut. A {@code result}'s diffs are not repeated in the
 * log; they are in {@code status.diffs}.
 */
public final class EventRecorder {
  static final int MAX_OUTPUT = 4096;
  static final int MAX_TEXT = 16384;

  private EventRecorder() {}

  /** Appends the events newer than the status's high-water mark; returns how many were new. */
  public static int record(RunStatus status, List<RunnerEvent> events) {
    int recorded = 0;
    for (RunnerEvent event : events) {
      long seen = Objects.requireNonNullElse(status.getRunnerSeq(), 0L);
      if (event.seq() <= seen) {
        continue;
      }
      RunEventLog.append(status, event.type().wireName(), event.time(), bounded(event));
      status.setRunnerSeq(event.seq());
      recorded++;
    }
    return recorded;
  }

  static Map<String, Object> bounded(RunnerEvent event) {
    ObjectNode data = event.data();
    data.remove("diffs");
    bound(data, null);
    @SuppressWarnings("unchecked")
    Map<String, Object> map = Serialization.jsonMapper().convertValue(data, LinkedHashMap.class);
    return map;
  }

  private static void bound(JsonNode node, String field) {
    if (node instanceof ObjectNode object) {
      for (String name : object.properties().stream().map(Map.Entry::getKey).toList()) {
        JsonNode value = object.get(name);
        if (value.isTextual()) {
          object.set(
              name,
              TextNode.valueOf(
                  truncate(value.asText(), "output".equals(name) ? MAX_OUTPUT : MAX_TEXT)));
        } else {
          bound(value, name);
        }
      }
    } else if (node != null && node.isArray()) {
      node.forEach(child -> bound(child, field));
    }
  }

  static String truncate(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    return text.substring(0, max)
        + "\n… ("
        + (text.length() - max)
        + " more characters not kept in the run's log)";
  }
}
