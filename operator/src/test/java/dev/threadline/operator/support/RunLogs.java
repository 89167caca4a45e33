package dev.threadline.operator.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import dev.threadline.operator.run.RunEventLog;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;

/** A run's event log as the history store holds it, for assertions. */
public final class RunLogs {
  private RunLogs() {}

  /** An event of the log: its number, type and data (parsed). */
  public record Event(long seq, String type, JsonNode data) {}

  public static List<Event> events(History history, Run run) {
    return history.events().all(RunEventLog.key(run)).stream()
        .map(event -> new Event(event.seq(), event.type(), parse(event.data())))
        .toList();
  }

  public static List<String> types(History history, Run run) {
    return events(history, run).stream().map(Event::type).toList();
  }

  private static JsonNode parse(String data) {
    try {
      return Serialization.jsonMapper().readTree(data);
    } catch (JsonProcessingException e) {
      throw new AssertionError("a stored event's data is JSON", e);
    }
  }
}
