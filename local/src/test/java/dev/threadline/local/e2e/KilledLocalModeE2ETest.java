package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.history.History;
import dev.threadline.history.HistorySettings;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the local mode during a computer run, then a start on the same data folder: every
 * event the client had been sent is in the run's replay exactly once, with the same id and the same
 * content; the store numbers the run's events 1..n without a gap or a repeat; the run ends {@code
 * failed} saying that it was interrupted; and its usage is counted once.
 */
class KilledLocalModeE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int COMMANDS = 8;
  private static final int TOOL_CALLS_BEFORE_THE_KILL = 3;
  private static final String NS = "alice";

  @TempDir Path dataDir;

  @Test
  void everyEventSentBeforeAKillIsReplayedOnceAndTheRunEndsFailedCountedOnce() throws Exception {
    String task =
        "Run "
            + IntStream.rangeClosed(1, COMMANDS)
                .mapToObj(i -> "`echo step " + i + "; sleep 1`")
                .collect(Collectors.joining(", then "));
    List<SseFrames.Frame> received = new ArrayList<>();
    try (LocalModeProcess first = LocalModeProcess.start(dataDir)) {
      LocalModeFixture api = first.client();
      try (SseFrames stream =
          api.frames(
              api.request(ALICE_KEY, "/v1/threads")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"task\": \"" + task + "\"}")))) {
        while (toolCalls(received) < TOOL_CALLS_BEFORE_THE_KILL) {
          List<SseFrames.Frame> next = stream.next(1);
          assertThat(next).as("the stream ended before the kill: %s", received).isNotEmpty();
          received.addAll(next);
        }
        first.kill();
        readWhatWasSent(stream, received);
      }
    }
    assertThat(received.getFirst().type()).isEqualTo("thread.created");
    assertThat(received)
        .extracting(SseFrames.Frame::type)
        .doesNotContain("response.completed", "response.failed");
    String threadId = received.getFirst().json().at("/thread/id").asText();

    JsonNode thread;
    JsonNode usage;
    List<SseFrames.Frame> replay;
    try (LocalModeProcess second = LocalModeProcess.start(dataDir)) {
      LocalModeFixture api = second.client();
      thread =
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> json(api.get(ALICE_KEY, "/v1/threads/" + threadId)).path("thread"),
                  found -> found.path("status").asText().equals("failed"));
      try (SseFrames whole =
          api.frames(api.request(ALICE_KEY, "/v1/threads/" + threadId + "/stream").GET())) {
        replay = whole.rest();
      }

      // Counted once: the interrupted run is the month's only run, at the thread's tokens; a later
      // run is counted beside it, and the totals stay the sum of the two.
      usage =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> usage(api), counted -> counted.path("runs").asLong() == 1);
      assertThat(thread.path("inputTokens").asLong()).isPositive();
      assertThat(usage.path("inputTokens").asLong()).isEqualTo(thread.path("inputTokens").asLong());
      assertThat(usage.path("outputTokens").asLong())
          .isEqualTo(thread.path("outputTokens").asLong());
      HttpResponse<String> later =
          api.post(
              ALICE_KEY,
              "/v1/threads",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"What is 2 + 3?\"}],"
                  + "\"stream\":false}");
      assertThat(later.statusCode()).as(later.body()).isEqualTo(201);
      JsonNode laterThread =
          json(api.get(ALICE_KEY, "/v1/threads/" + json(later).at("/thread/id").asText()))
              .path("thread");
      JsonNode both =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> usage(api), counted -> counted.path("runs").asLong() >= 2);
      assertThat(both.path("runs").asLong()).isEqualTo(2);
      assertThat(both.path("inputTokens").asLong())
          .isEqualTo(
              thread.path("inputTokens").asLong() + laterThread.path("inputTokens").asLong());
      second.stop();
    }

    // The replay begins with exactly what the client was sent (less thread.created, which only the
    // POST sends): the same ids, the same data, nothing twice.
    List<String> sent = SseFrames.describe(received.subList(1, received.size()));
    assertThat(SseFrames.describe(replay)).startsWith(sent.toArray(String[]::new));
    assertThat(replay).extracting(SseFrames.Frame::id).doesNotHaveDuplicates();
    SseFrames.Frame failed =
        replay.stream()
            .filter(frame -> frame.type().equals("response.failed"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no response.failed in " + replay));
    assertThat(failed.json().at("/response/error/message").asText())
        .contains("stopped while this run was running");
    assertThat(replay.getLast().type()).isEqualTo("stream.completed");

    // The store, read after the second stop: the run's log is numbered 1..n, each key once, and
    // holds every event the client was sent.
    String threadName = ResourceIds.toName(threadId).orElseThrow();
    RunKey run = new RunKey(NS, threadName, ThreadRuns.runName(threadName, 1));
    List<StoredEvent> events;
    try (History history = History.open(HistorySettings.sqlite(dataDir.resolve("history.db")))) {
      events = history.events().all(run);
    }
    assertThat(events)
        .extracting(StoredEvent::seq)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, events.size()).boxed().toList());
    assertThat(events).extracting(StoredEvent::key).doesNotHaveDuplicates();
    assertThat(events.stream().filter(event -> event.type().equals("tool_call")).count())
        .isGreaterThanOrEqualTo(TOOL_CALLS_BEFORE_THE_KILL);
    assertThat(received.stream().mapToLong(KilledLocalModeE2ETest::seq).max().orElseThrow())
        .isLessThanOrEqualTo(events.size());
    // The run ended as a failed run ends: its failed event is the log's last, and the replay reads
    // the log to its end, also what the worker stored but had not announced when it was killed.
    assertThat(events.getLast().type()).isEqualTo("failed");
    assertThat(events.getLast().data()).contains("stopped while this run was running");
    assertThat(seq(failed)).isEqualTo(events.size());
    // What it spent is its last usage report, also one stored but not announced before the kill.
    JsonNode lastReport =
        JSON.readTree(
            events.stream()
                .filter(event -> event.type().equals("usage"))
                .reduce((first, next) -> next)
                .orElseThrow()
                .data());
    assertThat(usage.path("inputTokens").asLong())
        .isEqualTo(lastReport.path("input_tokens").asLong());
  }

  /**
   * Reads on after the kill: frames the server had sent before it died still arrive, and were sent
   * as much as those read before. The cut connection ends the stream.
   */
  private static void readWhatWasSent(SseFrames stream, List<SseFrames.Frame> received) {
    try {
      for (List<SseFrames.Frame> next = stream.next(1); !next.isEmpty(); next = stream.next(1)) {
        received.addAll(next);
      }
    } catch (UncheckedIOException cut) {
      // The connection was reset by the kill: nothing more was sent.
    }
  }

  private static long toolCalls(List<SseFrames.Frame> frames) {
    return frames.stream()
        .filter(frame -> frame.type().equals("response.item.completed"))
        .filter(frame -> frame.json().at("/item/type").asText().equals("tool_call"))
        .count();
  }

  /** The log entry a frame was made from: its id is {@code <runId>:<seq>:<index>}. */
  private static long seq(SseFrames.Frame frame) {
    return Long.parseLong(frame.id().split(":")[1]);
  }

  private static JsonNode usage(LocalModeFixture api) throws IOException {
    return json(api.get(ALICE_KEY, "/v1/usage"));
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }
}
