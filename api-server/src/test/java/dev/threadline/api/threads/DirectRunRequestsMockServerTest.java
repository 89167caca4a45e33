package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a streamed direct run ({@code POST /v1/threads} with a greeting, read up to {@code
 * stream.completed}) costs the Kubernetes API, counted in the mock server's request log: the thread
 * and run creates and the usage ledger's read, nothing else. Streams follow the Run informer, so no
 * stream opens a watch, lists, or reads a Run; tenants, keys and threads come from informers too.
 */
class DirectRunRequestsMockServerTest {
  private static final int RUNS = 5;

  private static SharedApiServer shared;
  private static SseClient sse;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    sse = new SseClient(shared.baseUrl());
    FakeOperator.on(shared);
  }

  @Test
  void aStreamedDirectRunCostsTwoCreatesAndOneLedgerReadAndNoWatch() throws Exception {
    TestUser user = shared.newUser("counted");
    requestsOf(user); // what came before the runs

    for (int i = 0; i < RUNS; i++) {
      try (SseClient.Stream stream =
          sse.post(
              "/v1/threads",
              user.key(),
              "{\"messages\": [{\"role\": \"user\", \"content\": \"Hello\"}]}")) {
        assertThat(stream.remainingEvents())
            .extracting(SseClient.Frame::type)
            .containsExactly(
                "thread.created", "direct.response", "response.completed", "stream.completed");
      }
    }

    Map<String, Long> requests =
        requestsOf(user).stream()
            .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    assertThat(requests)
        .as("the user's namespace's requests during %d direct runs", RUNS)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                // the API server: the thread, the run, the month's allowance
                "POST threads", (long) RUNS,
                "POST runs", (long) RUNS,
                "GET usageledgers/name", (long) RUNS,
                // the fake operator: reads the run, writes its answer
                "GET runs/name", (long) RUNS,
                "PUT runs/name/status", (long) RUNS));
  }

  /**
   * The requests since the last call that name the user's namespace, as {@code METHOD
   * kind[/name][/subresource]} ({@code name} for any object name), lists and watches marked.
   */
  private static List<String> requestsOf(TestUser user) throws InterruptedException {
    String prefix = "/namespaces/" + user.namespace() + "/";
    List<String> seen = new ArrayList<>();
    for (RecordedRequest request = shared.kubernetes().takeRequest(100, TimeUnit.MILLISECONDS);
        request != null;
        request = shared.kubernetes().takeRequest(100, TimeUnit.MILLISECONDS)) {
      String path = request.getPath();
      int at = path.indexOf(prefix);
      if (at < 0) {
        continue;
      }
      String[] parts = path.substring(at + prefix.length()).split("\\?", 2);
      String[] segments = parts[0].split("/");
      StringBuilder shape = new StringBuilder(request.getMethod()).append(' ').append(segments[0]);
      if (segments.length > 1) {
        shape.append("/name");
      }
      for (int i = 2; i < segments.length; i++) {
        shape.append('/').append(segments[i]);
      }
      String query = parts.length > 1 ? parts[1] : "";
      if (query.contains("watch=true")) {
        shape.append(" (watch)");
      }
      seen.add(shape.toString());
    }
    return seen;
  }
}
