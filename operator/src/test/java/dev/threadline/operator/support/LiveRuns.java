package dev.threadline.operator.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Runs that ask for {@code streamTokens}, and a reader of their live channel, for tests. */
public final class LiveRuns {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private LiveRuns() {}

  /** A new thread {@code threadName} with its first run ({@code streamTokens} as given). */
  public static Run create(
      KubernetesClient client,
      String namespace,
      String threadName,
      String message,
      Boolean streamTokens) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace(namespace).build());
    thread.setSpec(new ThreadSpec());
    thread = client.resource(thread).create();
    Run run = ThreadRuns.newRun(thread, 1, message, List.of(), ThreadRuns.SOURCE_API);
    run.getSpec().setStreamTokens(streamTokens);
    return client.resource(run).create();
  }

  /** The run's {@code status.deltaChannel}, once written. */
  public static String awaitChannel(KubernetesClient client, Run run) {
    return await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> status(client, run).getDeltaChannel(), url -> url != null);
  }

  public static Run awaitTerminal(KubernetesClient client, Run run) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> current(client, run),
            latest -> latest.getStatus() != null && latest.getStatus().getCompletedAt() != null);
  }

  /** Every line of the session at {@code channel}, to its end. */
  public static List<JsonNode> read(String channel, String token) {
    try {
      HttpResponse<Stream<String>> response =
          HTTP.send(request(channel, token), HttpResponse.BodyHandlers.ofLines());
      assertThat(response.statusCode()).isEqualTo(200);
      List<JsonNode> lines = new ArrayList<>();
      try (Stream<String> body = response.body()) {
        for (String line : (Iterable<String>) body::iterator) {
          lines.add(JSON.readTree(line));
        }
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The status code {@code GET channel} answers with this token. */
  public static int status(String channel, String token) throws Exception {
    return HTTP.send(request(channel, token), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** The text deltas among {@code lines}, in order. */
  public static List<String> textDeltas(List<JsonNode> lines) {
    return lines.stream()
        .filter(line -> line.path("type").asText().equals(DeltaWire.TEXT_DELTA))
        .map(line -> line.path("delta").asText())
        .toList();
  }

  private static HttpRequest request(String channel, String token) {
    return HttpRequest.newBuilder(URI.create(channel))
        .header("Authorization", "Bearer " + token)
        .build();
  }

  private static Run current(KubernetesClient client, Run run) {
    return client
        .resources(Run.class)
        .inNamespace(run.getMetadata().getNamespace())
        .withName(run.getMetadata().getName())
        .get();
  }

  private static RunStatus status(KubernetesClient client, Run run) {
    RunStatus status = current(client, run).getStatus();
    return status == null ? new RunStatus() : status;
  }
}
