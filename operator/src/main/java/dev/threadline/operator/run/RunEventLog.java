package dev.threadline.operator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Appends to a run's ordered event log. Sequence numbers never repeat or skip; when the log is full
 * the oldest entries go first and {@code droppedEvents} counts them, so readers can tell.
 */
public final class RunEventLog {
  /** Most events a Run keeps in its status (keeps the object well below etcd's size limit). */
  public static final int MAX_EVENTS = 500;

  private RunEventLog() {}

  /** Appends an event with the next sequence number. */
  public static void append(RunStatus status, String type, Instant time, Map<String, ?> data) {
    List<RunEvent> events =
        new ArrayList<>(Objects.requireNonNullElse(status.getEvents(), List.of()));
    long dropped = Objects.requireNonNullElse(status.getDroppedEvents(), 0L);
    long next = events.isEmpty() ? dropped + 1 : events.get(events.size() - 1).getSeq() + 1;
    RunEvent event = new RunEvent();
    event.setSeq(next);
    event.setType(type);
    event.setTime(Timestamps.format(time));
    event.setData(toJson(data));
    events.add(event);
    while (events.size() > MAX_EVENTS) {
      events.remove(0);
      dropped++;
    }
    status.setEvents(events);
    status.setDroppedEvents(dropped == 0 ? null : dropped);
  }

  private static JsonNode toJson(Map<String, ?> data) {
    ObjectNode node = Serialization.jsonMapper().createObjectNode();
    data.forEach((key, value) -> node.set(key, Serialization.jsonMapper().valueToTree(value)));
    return node;
  }
}
