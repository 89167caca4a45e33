package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream that survives an api-server restart: the client is cut off after a few events of a
 * computer run, the api-server is replaced by a fresh one (no memory of the stream), and the client
 * reconnects with {@code Last-Event-ID}. What it receives in both parts is exactly what an
 * uninterrupted stream gives: nothing lost, nothing twice, the same ids.
 */
class StreamResumeE2ETest {
  private static final String TASK = "Run `echo one` and `echo two` and `echo three`";
  private static final int RECEIVED_BEFORE_THE_CUT = 3;
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aStreamCutBeforeAnApiServerRestartResumesWithEveryRemainingEventOnce() {
    List<SseFrames.Frame> received = new ArrayList<>();
    try (SseFrames stream =
        fixture.frames(
            fixture
                .request(LocalModeFixture.ALICE_KEY, "/v1/threads")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"task\": \"" + TASK + "\"}")))) {
      received.addAll(stream.next(RECEIVED_BEFORE_THE_CUT));
    }
    assertThat(received).hasSize(RECEIVED_BEFORE_THE_CUT);
    assertThat(received.getFirst().type()).isEqualTo("thread.created");
    String threadId = received.getFirst().json().path("thread").path("id").asText();

    fixture.local().restartApiServer();

    String path = "/v1/threads/" + threadId + "/stream";
    try (SseFrames resumed =
        fixture.frames(
            fixture
                .request(LocalModeFixture.ALICE_KEY, path)
                .header("Last-Event-ID", received.getLast().id())
                .GET())) {
      received.addAll(resumed.rest());
    }
    List<SseFrames.Frame> uninterrupted;
    try (SseFrames whole =
        fixture.frames(fixture.request(LocalModeFixture.ALICE_KEY, path).GET())) {
      uninterrupted = whole.rest();
    }

    assertThat(received.getLast().type()).isEqualTo("stream.completed");
    assertThat(received)
        .extracting(SseFrames.Frame::type)
        .contains("computer.starting", "response.started", "response.completed");
    assertThat(
            received.stream()
                .filter(frame -> frame.type().equals("response.item.completed"))
                .map(frame -> frame.json().path("item").path("tool").path("command").asText()))
        .containsSubsequence("echo one", "echo two", "echo three");
    // GET .../stream replays the run from its start: everything but thread.created, which the POST
    // sent.
    assertThat(SseFrames.describe(received.subList(1, received.size())))
        .isEqualTo(SseFrames.describe(uninterrupted));
  }
}
