package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The check the end-to-end tests put every response through refuses what the document does not. */
class OpenApiContractTest {
  private static final OpenApiContract CONTRACT = OpenApiContract.INSTANCE;
  private static final Optional<String> JSON = Optional.of("application/json");
  private static final String THREAD =
      """
      {"thread": {"id": "thread_a1", "userId": "alice", "environmentId": null, "agentId": null,
        "title": null, "status": "active", "messageCount": 0, "inputTokens": 0,
        "outputTokens": 0, "totalCost": 0.0, "appId": null, "metadata": {},
        "createdAt": "2026-12-02T03:00:00Z", "updatedAt": "2026-12-02T03:00:00Z"}}
      """;

  @Test
  void aResponseAsDocumentedPasses() {
    assertThatCode(
            () -> CONTRACT.checkResponse("GET", uri("/v1/threads/thread_a1"), 200, JSON, THREAD))
        .doesNotThrowAnyException();
    assertThatCode(() ->
            CONTRACT.checkResponse(
                "GET",
                uri("/v1/threads/thread_a1"),
                404,
                JSON,
                "{\"error\": \"Not Found\", \"message\": \"Thread thread_a1 not found\"}"))
        .doesNotThrowAnyException();
  }

  @Test
  void aMissingFieldOrAWrongValueFails() {
    assertThatThrownBy(() ->
            CONTRACT.checkResponse(
                "GET",
                uri("/v1/threads/thread_a1"),
                200,
                JSON,
                THREAD.replace("\"status\": \"active\",", "")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("status");
    assertThatThrownBy(() ->
            CONTRACT.checkResponse(
                "GET", uri("/v1/threads/thread_a1"), 200, JSON, THREAD.replace("active", "idle")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("idle");
  }

  @Test
  void anUndocumentedStatusMediaTypeOrOperationFails() {
    assertThatThrownBy(
            () -> CONTRACT.checkResponse("GET", uri("/v1/usage"), 201, JSON, "{\"used\": 0}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("does not give");
    assertThatThrownBy(() ->
            CONTRACT.checkResponse(
                "GET", uri("/v1/threads/thread_a1"), 200, Optional.of("text/plain"), "hi"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("media type");
    assertThatThrownBy(() -> CONTRACT.checkResponse("GET", uri("/v1/nothing"), 200, JSON, "{}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no such operation");
  }

  @Test
  void pathsBesideTheRestSurfaceAreNotItsToCheck() {
    assertThatCode(() ->
            CONTRACT.checkResponse(
                "GET", uri("/console/index.html"), 200, Optional.of("text/html"), "<html>"))
        .doesNotThrowAnyException();
  }

  @Test
  void streamEventsAreCheckedByType() {
    assertThatCode(() -> CONTRACT.checkEvent("{\"type\": \"stream.completed\"}"))
        .doesNotThrowAnyException();
    assertThatCode(() ->
            CONTRACT.checkEvent(
                "{\"type\": \"direct.response\", \"message\": \"Hi\", \"threadId\": \"thread_a1\","
                    + " \"userId\": \"alice\"}"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> CONTRACT.checkEvent("{\"type\": \"direct.response\"}"))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> CONTRACT.checkEvent("{\"type\": \"no.such.event\"}"))
        .isInstanceOf(AssertionError.class);
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:8080" + path);
  }
}
