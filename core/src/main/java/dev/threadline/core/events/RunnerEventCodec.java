package dev.threadline.core.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Turns events into protocol lines and back: {@code {"seq":N,"time":"2026-01-02T03:04:05.678Z",
 * "type":"...","data":{...}}}, one JSON object per line. Reading is tolerant, because a Pod's log
 * holds more than the runner's protocol (a JVM warning, a shell's output, a line from a newer
 * runner with a type this version does not know): such lines are skipped, never an exception.
 */
public final class RunnerEventCodec {

  /**
   * ISO-8601 in UTC with a {@code Z} and always three fraction digits, as the contract writes
   * times.
   */
  public static final DateTimeFormatter TIME_FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final ObjectMapper JSON = new ObjectMapper();

  private RunnerEventCodec() {}

  /** The event as one protocol line, without the line break. */
  public static String encode(RunnerEvent event) {
    ObjectNode line = JSON.createObjectNode();
    line.put("seq", event.seq());
    line.put("time", TIME_FORMAT.format(event.time()));
    line.put("type", event.type().wireName());
    line.set("data", event.data());
    try {
      return JSON.writeValueAsString(line);
    } catch (JsonProcessingException e) {
      // An ObjectNode always serialises; this would be a Jackson bug.
      throw new IllegalStateException("cannot encode runner event " + event.type(), e);
    }
  }

  /**
   * The event on {@code line}, or empty when the line is not one: not JSON, not an object, no
   * positive whole {@code seq}, no readable {@code time}, an unknown {@code type}, or a {@code
   * data} that is not an object. A missing {@code data} reads as an empty object.
   */
  public static Optional<RunnerEvent> parse(String line) {
    if (line == null) {
      return Optional.empty();
    }
    String trimmed = line.strip();
    if (!trimmed.startsWith("{")) {
      return Optional.empty();
    }
    JsonNode node;
    try {
      node = JSON.readTree(trimmed);
    } catch (JsonProcessingException | RuntimeException notJson) {
      return Optional.empty();
    }
    if (node == null || !node.isObject()) {
      return Optional.empty();
    }
    JsonNode seq = node.get("seq");
    if (seq == null || !seq.isIntegralNumber() || seq.asLong() < 1) {
      return Optional.empty();
    }
    Optional<Instant> time = time(node.get("time"));
    Optional<RunnerEventType> type = RunnerEventType.fromWireName(node.path("type").asText(null));
    JsonNode data = node.get("data");
    if (time.isEmpty() || type.isEmpty() || (data != null && !data.isNull() && !data.isObject())) {
      return Optional.empty();
    }
    ObjectNode fields = data instanceof ObjectNode object ? object : JSON.createObjectNode();
    return Optional.of(new RunnerEvent(seq.asLong(), time.get(), type.get(), fields));
  }

  private static Optional<Instant> time(JsonNode node) {
    if (node == null || !node.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(node.asText()).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
