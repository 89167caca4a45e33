package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.e2e.SseStream.Frame;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stop and start the local mode on the same data folder: nothing is forgotten. */
class LocalModeRestartE2ETest {
  @TempDir Path dataDir;

  @Test
  void aRestartKeepsThreadsAndMessagesAndEndsTheRunItInterrupted() {
    String answered;
    String interrupted;
    try (LocalModeFixture before = LocalModeFixture.start(dataDir, UnaryOperator.identity())) {
      var done =
          before.post(
              ALICE_KEY,
              "/v1/threads",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"What is 2 + 3?\"}],"
                  + "\"stream\":false}");
      assertThat(done.statusCode()).as(done.body()).isIn(200, 201);
      answered = json(done.body()).at("/thread/id").asText();
      try (SseStream stream =
          before.stream(
              ALICE_KEY,
              "/v1/threads",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `sleep 60`\"}]}")) {
        Frame started = stream.readUntil(frame -> frame.type().equals("response.started"));
        assertThat(started).isNotNull();
        interrupted = stream.frames().get(0).data().at("/thread/id").asText();
      }
    }

    try (LocalModeFixture after = LocalModeFixture.start(dataDir, UnaryOperator.identity())) {
      JsonNode messages =
          json(after.get(ALICE_KEY, "/v1/threads/" + answered + "/messages").body());
      assertThat(messages.path("total_count").asInt()).isEqualTo(2);
      assertThat(messages.at("/data/1/content").asText()).contains("5");
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() ->
              assertThat(
                      json(after.get(ALICE_KEY, "/v1/threads/" + interrupted).body())
                          .at("/thread/status")
                          .asText())
                  .isEqualTo("failed"));
    }
  }

  private static JsonNode json(String body) {
    return Serialization.unmarshal(body, JsonNode.class);
  }
}
