package dev.threadline.operator.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.history.NewEvent;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredEvent;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A run's ordered event log, in the history store: every event in full, numbered by the store.
 * Appending comes before the status write that announces it ({@code status.lastEventSeq}), so a
 * reader woken by the Run finds the events. Each event has a key unique in its run, so a writer
 * that repeats itself (a retried write, a second worker) never records an event twice.
 */
public final class RunEventLog {
  private final History history;

  public RunEventLog(History history) {
    this.history = Objects.requireNonNull(history, "history");
  }

  public History history() {
    return history;
  }

  /** Where the store keeps the run's rows. */
  public static RunKey key(Run run) {
    return new RunKey(
        run.getMetadata().getNamespace(),
        Objects.requireNonNullElse(run.getSpec().getThread(), ""),
        run.getMetadata().getName());
  }

  /**
   * Appends one of the operator's own events ({@code started}, {@code message}, {@code result},
   * {@code failed}): each once per run, so its type is its key.
   */
  public void append(Run run, RunStatus status, String type, Instant time, Map<String, ?> data) {
    append(run, status, List.of(new NewEvent(type, type, Timestamps.format(time), toJson(data))));
  }

  /**
   * Appends {@code events} and raises {@code status.lastEventSeq} to the last of them; returns
   * whether it grew (something new was recorded).
   */
  public boolean append(Run run, RunStatus status, List<NewEvent> events) {
    long before = Objects.requireNonNullElse(status.getLastEventSeq(), 0L);
    long last = before;
    for (StoredEvent stored : history.events().append(key(run), events)) {
      last = Math.max(last, stored.seq());
    }
    if (last > before) {
      status.setLastEventSeq(last);
    }
    return last > before;
  }

  /** The data of the run's event stored under {@code key}, if it has one. */
  public Optional<JsonNode> data(Run run, String key) {
    return history.events().find(key(run), key).map(event -> parse(event.data()));
  }

  static String toJson(Map<String, ?> data) {
    ObjectNode node = Serialization.jsonMapper().createObjectNode();
    data.forEach((key, value) -> node.set(key, Serialization.jsonMapper().valueToTree(value)));
    return node.toString();
  }

  private static JsonNode parse(String json) {
    try {
      return Serialization.jsonMapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored event's data is JSON", e);
    }
  }
}
