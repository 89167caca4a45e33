package dev.threadline.operator.computer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.NewEvent;
import dev.threadline.operator.run.RunEventLog;
import java.util.List;
import java.util.Map;

/**
 * Records the runner's events in the run's log in the history store, in the runner's order, each
 * once: an event's key is its runner seq ({@code runner:<seq>}), which the store records once per
 * run, so a worker that repeats a step after a failover adds nothing twice.
 *
 * <p>Texts are bounded: a command's output keeps its first {@code outputLimit} characters
 * (THREADLINE_TOOL_OUTPUT_LIMIT), any other text its first {@value #MAX_TEXT}, with a note of what
 * was cut. A {@code result}'s diffs are not repeated in the log; they are in the store's diffs.
 */
public final class EventRecorder {
  static final int MAX_TEXT = 16384;

  private final RunEventLog log;
  private final int outputLimit;

  public EventRecorder(RunEventLog log, int outputLimit) {
    this.log = log;
    this.outputLimit = outputLimit;
  }

  public RunEventLog log() {
    return log;
  }

  /** The most characters of a command's output (or a diff's content) the store keeps. */
  public int outputLimit() {
    return outputLimit;
  }

  /** The runner's key of an event in the run's log. */
  public static String key(RunnerEvent event) {
    return "runner:" + event.seq();
  }

  /**
   * Appends {@code events} (those the run has not yet) and raises {@code status.lastEventSeq};
   * returns whether anything was new.
   */
  public boolean record(Run run, RunStatus status, List<RunnerEvent> events) {
    if (events.isEmpty()) {
      return false;
    }
    return log.append(
        run,
        status,
        events.stream()
            .map(event ->
                new NewEvent(
                    key(event),
                    event.type().wireName(),
                    Timestamps.format(event.time()),
                    bounded(event).toString()))
            .toList());
  }

  ObjectNode bounded(RunnerEvent event) {
    ObjectNode data = event.data();
    data.remove("diffs");
    bound(data);
    return data;
  }

  private void bound(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String name : object.properties().stream().map(Map.Entry::getKey).toList()) {
        JsonNode value = object.get(name);
        if (value.isTextual()) {
          object.set(
              name,
              TextNode.valueOf(
                  truncate(value.asText(), "output".equals(name) ? outputLimit : MAX_TEXT)));
        } else {
          bound(value);
        }
      }
    } else if (node != null && node.isArray()) {
      node.forEach(this::bound);
    }
  }

  public static String truncate(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    return text.substring(0, max)
        + "\n… ("
        + (text.length() - max)
        + " more characters not kept in the run's log)";
  }
}
