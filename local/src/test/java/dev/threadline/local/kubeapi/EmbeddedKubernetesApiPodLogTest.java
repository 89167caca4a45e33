package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.threadline.local.podlog.BufferedPodLog;
import dev.threadline.local.podlog.PodLog;
import dev.threadline.local.podlog.PodLogSource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Pod logs come from the PodLogSource, whole or followed as they are written. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiPodLogTest {
  private final Map<String, BufferedPodLog> logs = new ConcurrentHashMap<>();
  private final PodLogSource source =
      (namespace, pod, container) ->
          Optional.<PodLog>ofNullable(logs.get(namespace + "/" + pod + "/" + container));

  private EmbeddedKubernetesApi api;
  private KubernetesClient client;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.builder().podLogs(source).build());
    client = api.newClient();
  }

  @AfterAll
  void stop() {
    client.close();
    api.close();
  }

  @Test
  void getLogReturnsWhatTheContainerWroteAndHonoursTailLines() {
    createPod("finished");
    BufferedPodLog log = log("finished");
    log.append("one\ntwo\nthree\n".getBytes(StandardCharsets.UTF_8));
    log.finish();

    assertThat(client.pods().withName("finished").getLog()).isEqualTo("one\ntwo\nthree\n");
    assertThat(client.pods().withName("finished").tailingLines(2).getLog())
        .isEqualTo("two\nthree\n");
    assertThat(client.pods().withName("finished").inContainer("main").getLog()).startsWith("one");
  }

  @Test
  void watchLogStreamsChunksAsTheyAreWrittenAndEndsWithTheContainer() {
    createPod("running");
    BufferedPodLog log = log("running");
    log.append("before\n".getBytes(StandardCharsets.UTF_8));
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    try (LogWatch watch = client.pods().withName("running").watchLog(out)) {
      await().atMost(Duration.ofSeconds(5)).until(() -> text(out).equals("before\n"));
      log.append("after\n".getBytes(StandardCharsets.UTF_8));
      await().atMost(Duration.ofSeconds(5)).until(() -> text(out).equals("before\nafter\n"));
      log.finish();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> watch.onClose().toCompletableFuture().isDone());
    }
    assertThat(text(out)).isEqualTo("before\nafter\n");
  }

  @Test
  void aMissingPodIsNotFound() {
    HttpResponse<String> response =
        new RawHttp(api).get("/api/v1/namespaces/default/pods/ghost/log");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(Json.parse(response.body()).path("message").asText())
        .isEqualTo("pods \"ghost\" not found");
  }

  @Test
  void aContainerWithoutOutputYetIsWaitingToStart() {
    createPod("pending");

    assertThatThrownBy(() -> client.pods().withName("pending").getLog())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(400);
              assertThat(e.getStatus().getMessage())
                  .isEqualTo(
                      "container \"main\" in pod \"pending\" is waiting to start:"
                          + " ContainerCreating");
            });
  }

  private void createPod(String name) {
    client
        .pods()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("runner")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private BufferedPodLog log(String pod) {
    return logs.computeIfAbsent("default/" + pod + "/main", k -> new BufferedPodLog());
  }

  private static String text(ByteArrayOutputStream out) {
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
