package dev.threadline.api.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.threadline.history.StoredEvent;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * One event of a run's log as the readers see it: its number in the log (from 1, without gaps), its
 * type of the runner protocol, its time and its payload (fabric8's Jackson 2 tree, as the operator
 * wrote it).
 */
public record LogEvent(long seq, String type, String time, JsonNode data) {
  /** The stored event, its JSON parsed; a payload that is not JSON reads as missing. */
  public static LogEvent of(StoredEvent stored) {
    return new LogEvent(stored.seq(), stored.type(), stored.time(), parse(stored.data()));
  }

  private static JsonNode parse(String data) {
    try {
      return Serialization.jsonMapper().readTree(data);
    } catch (com.fasterxml.jackson.core.JsonProcessingException malformed) {
      return MissingNode.getInstance();
    }
  }
}
