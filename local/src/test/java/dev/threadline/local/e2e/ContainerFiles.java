package dev.threadline.local.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A container of the REST API as end-to-end tests use it: its file API once it answers. */
final class ContainerFiles {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ContainerFiles() {}

  /**
   * Waits until the container's health check says its file API answers.
   *
   * @param base {@code /api/v1/containers/<id>}
   */
  static void awaitHealthy(LocalModeFixture fixture, String key, String base, Duration wait) {
    await()
        .atMost(wait)
        .pollInterval(Duration.ofMillis(100))
        .until(() ->
            JSON.readTree(fixture.get(key, base + "/health").body()).path("healthy").asBoolean());
  }

  /** {@code PUT <base>/files?path=<path>} with {@code content} as the file's bytes. */
  static HttpResponse<String> upload(
      LocalModeFixture fixture,
      String key,
      String base,
      String path,
      HttpRequest.BodyPublisher content) {
    return fixture.send(
        fixture
            .request(key, base + "/files?path=" + path)
            .header("Content-Type", "application/octet-stream")
            .PUT(content)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
