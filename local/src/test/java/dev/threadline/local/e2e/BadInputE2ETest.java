package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Black-box: malformed, oversized, deeply nested and wrongly typed bodies to every endpoint that
 * takes one, and undecodable queries to the lists. None may answer 5xx or hang (the client gives
 * each request 30 s); after each endpoint the server is healthy, and at the end a normal thread
 * still works.
 */
class BadInputE2ETest {
  private static final List<String> BODY_ENDPOINTS =
      List.of(
          "POST /v1/threads",
          "PATCH /v1/threads/thread_x",
          "POST /v1/threads/thread_x/messages",
          "POST /v1/threads/thread_x/cancel",
          "POST /v1/schedules",
          "PATCH /v1/schedules/sched_x",
          "POST /v1/schedules/sched_x/trigger",
          "PATCH /v1/schedules/sched_x/enable",
          "POST /v1/agents",
          "PATCH /v1/agents/agent_x",
          "POST /environments",
          "PATCH /environments/env_x",
          "PUT /environments/env_x/runtimes",
          "POST /environments/env_x/packages",
          "PUT /environments/env_x/dockerfile",
          "POST /environments/env_x/dockerfile/validate",
          "POST /environments/env_x/build",
          "POST /environments/env_x/build/test",
          "POST /api/v1/containers",
          "PATCH /api/v1/containers/ctr_x",
          "POST /api/v1/containers/ctr_x/mcp-servers",
          "PUT /api/v1/containers/ctr_x/files?path=a.txt");

  private static final Map<String, byte[]> BODIES =
      Map.of(
          "malformed",
          bytes("{\"name\": \"x\","),
          "not UTF-8",
          new byte[] {'{', '"', (byte) 0xff, (byte) 0xfe, '"', ':', '1', '}'},
          "oversized",
          bytes("{\"name\": \"" + "x".repeat(5 * 1024 * 1024) + "\"}"),
          "deeply nested",
          bytes("{\"metadata\": " + "{\"a\": ".repeat(20_000) + "1" + "}".repeat(20_000) + "}"),
          "nested arrays",
          bytes("[".repeat(50_000) + "]".repeat(50_000)),
          "wrongly typed",
          bytes(
              "{\"name\": 5, \"task\": [], \"messages\": \"x\", \"content\": {}, \"timeout\":"
                  + " \"soon\", \"runtimes\": 3, \"packages\": \"git\", \"type\": [],"
                  + " \"dockerfileExtensions\": 7, \"model\": {}, \"metadata\": []}"),
          "a bare value",
          bytes("42"),
          "huge number",
          bytes("{\"timeout\": 1" + "0".repeat(5000) + "}"));

  private static final List<String> QUERIES =
      List.of(
          "/v1/threads?limit=%ff",
          "/v1/schedules?x=%c0%ae",
          "/environments?isActive=%e2%82",
          "/api/v1/containers?limit=99999999999999999999",
          "/v1/agents?offset=-1");

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void noBadRequestIsAServerErrorAndTheServerStaysUsable() {
    for (String endpoint : BODY_ENDPOINTS) {
      String method = endpoint.substring(0, endpoint.indexOf(' '));
      String path = endpoint.substring(endpoint.indexOf(' ') + 1);
      BODIES.forEach((kind, body) -> {
        HttpResponse<String> answer;
        try {
          answer =
              fixture.send(
                  fixture
                      .request(ALICE_KEY, path)
                      .header("Content-Type", "application/json")
                      .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
        } catch (UncheckedIOException closed) {
          // A body over the limit is refused without being read on: the server answers 413 and
          // closes the connection while the client may still be sending (README, the HTTP edge).
          assertThat(kind).as("%s: %s", endpoint, closed.getMessage()).isEqualTo("oversized");
          return;
        }
        assertThat(answer.statusCode())
            .as("%s with a %s body: %s", endpoint, kind, head(answer.body()))
            .isBetween(400, 499);
        assertThat(answer.body()).as("%s, %s", endpoint, kind).doesNotContain("Exception");
      });
      assertThat(fixture.get(null, "/health").statusCode())
          .as("health after " + endpoint)
          .isEqualTo(200);
    }
    for (String query : QUERIES) {
      HttpResponse<String> answer = fixture.get(ALICE_KEY, query);
      assertThat(answer.statusCode()).as("%s: %s", query, answer.body()).isBetween(400, 499);
    }

    HttpResponse<String> thread =
        fixture.post(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}],\"stream\":false}");
    assertThat(thread.statusCode()).as(thread.body()).isIn(200, 201);
    assertThat(thread.body()).contains("\"status\":\"completed\"");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String head(String body) {
    return body.length() > 300 ? body.substring(0, 300) + "…" : body;
  }
}
