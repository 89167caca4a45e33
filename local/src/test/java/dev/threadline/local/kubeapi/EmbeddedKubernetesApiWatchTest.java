package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Informers and watches, over WebSocket (fabric8, on the in-process listener) and chunked HTTP
 * (kubectl's, on both listeners).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiWatchTest {
  /** Events come at once; this only bounds a broken test. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private EmbeddedKubernetesApi api;
  private KubernetesClient client;
  private final ExecutorService readers = Executors.newCachedThreadPool();

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    client = api.newClient();
  }

  @AfterEach
  void clean() {
    client.informers().stopAllRegisteredInformers();
  }

  @AfterAll
  void stop() {
    readers.shutdownNow();
    client.close();
    api.close();
  }

  @Test
  void anInformerSeesACustomResourceAddedUpdatedAndDeleted() {
    client
        .resources(Environment.class)
        .resource(EmbeddedKubernetesApiCrudTest.environment("env-before-informer"))
        .create();
    Recorder<Environment> events = new Recorder<>();
    SharedIndexInformer<Environment> informer =
        client.resources(Environment.class).inNamespace("default").inform(events);
    assertThat(informer.hasSynced()).isTrue();
    assertThat(informer.getStore().list())
        .extracting(e -> e.getMetadata().getName())
        .contains("env-before-informer");

    Environment created =
        client
            .resources(Environment.class)
            .resource(EmbeddedKubernetesApiCrudTest.environment("env-watched"))
            .create();
    await().atMost(PROMPTLY).until(() -> events.has("ADDED env-watched"));
    created.getSpec().setDisplayName("Changed");
    client.resources(Environment.class).resource(created).update();
    await().atMost(PROMPTLY).until(() -> events.has("UPDATED env-watched"));
    client.resources(Environment.class).withName("env-watched").delete();
    await().atMost(PROMPTLY).until(() -> events.has("DELETED env-watched"));

    assertThat(events.log)
        .doesNotContain("UPDATED env-before-informer")
        .as("no replay of what the list returned");
  }

  @Test
  void aLabelSelectedPodInformerSeesOnlyItsPods() {
    Recorder<Pod> events = new Recorder<>();
    client.pods().inNamespace("default").withLabel("threadline.dev/run", "r1").inform(events);

    client.pods().resource(pod("other-pod", "r2")).create();
    Pod mine = client.pods().resource(pod("my-pod", "r1")).create();
    await().atMost(PROMPTLY).until(() -> events.has("ADDED my-pod"));
    mine.getMetadata().getAnnotations().put("seen", "yes");
    client.pods().resource(mine).update();
    await().atMost(PROMPTLY).until(() -> events.has("UPDATED my-pod"));
    client.pods().withName("my-pod").delete();
    await().atMost(PROMPTLY).until(() -> events.has("DELETED my-pod"));

    assertThat(events.log).noneMatch(e -> e.contains("other-pod"));
  }

  @Test
  void aFieldSelectedRunInformerSeesRunsEnterAndLeaveItsSelection() {
    Recorder<Run> events = new Recorder<>();
    SharedIndexInformer<Run> informer =
        client
            .resources(Run.class)
            .inNamespace("default")
            .withField("status.route", "computer")
            .inform(events);

    Run direct = client.resources(Run.class).resource(run("run-direct-1")).create();
    Run computer = client.resources(Run.class).resource(run("run-computer-1")).create();
    routed(direct, "direct", "completed");
    computer = routed(computer, "computer", "running");
    await().atMost(PROMPTLY).until(() -> events.has("ADDED run-computer-1"));
    routed(computer, "computer", "completed");
    await().atMost(PROMPTLY).until(() -> events.has("UPDATED run-computer-1"));
    // A run leaving the selection (not something the product does) goes from the cache.
    routed(client.resources(Run.class).withName("run-computer-1").get(), "direct", "completed");
    await().atMost(PROMPTLY).until(() -> events.has("DELETED run-computer-1"));

    assertThat(events.log).noneMatch(e -> e.contains("run-direct-1"));
    assertThat(informer.getStore().list()).isEmpty();
  }

  @Test
  void aFieldSelectorOnAFieldTheCrdDoesNotDeclareIsRefusedLikeOnACluster() {
    RawHttp http = new RawHttp(api);
    String runs = "/apis/threadline.dev/v1alpha1/namespaces/default/runs";

    for (String query :
        List.of("?fieldSelector=spec.thread%3Dx", "?watch=true&fieldSelector=spec.thread%3Dx")) {
      HttpResponse<String> refused = http.get(runs + query);
      assertThat(refused.statusCode()).as(query).isEqualTo(400);
      assertThat(Json.parse(refused.body()).path("message").asText())
          .isEqualTo("field label not supported: spec.thread");
    }
    assertThat(
            http.get(runs + "?fieldSelector=status.phase%3Dpending,metadata.name%3Dx").statusCode())
        .isEqualTo(200);
    assertThat(
            http.get("/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dn")
                .statusCode())
        .as("built-in kinds keep any field")
        .isEqualTo(200);
  }

  private static Run run(String name) {
    Run run = new Run();
    run.getMetadata().setName(name);
    run.getMetadata().setNamespace("default");
    RunSpec spec = new RunSpec();
    spec.setThread("thread-x");
    spec.setMessage("hello");
    run.setSpec(spec);
    return run;
  }

  private Run routed(Run run, String route, String phase) {
    RunStatus status = new RunStatus();
    status.setRoute(route);
    status.setPhase(phase);
    run.setStatus(status);
    return client.resources(Run.class).resource(run).updateStatus();
  }

  @ParameterizedTest
  @EnumSource(RawHttp.Listener.class)
  void kubectlStyleWatchStreamsChunkedJsonFromTheListsResourceVersion(RawHttp.Listener listener)
      throws Exception {
    String suffix = listener.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    client
        .configMaps()
        .resource(EmbeddedKubernetesApiCrudTest.configMap("existing-" + suffix, java.util.Map.of()))
        .create();
    String listVersion = client.configMaps().list().getMetadata().getResourceVersion();
    HttpResponse<InputStream> watch =
        listener.client(api, api.adminToken()).stream(
            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + listVersion,
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(watch.statusCode()).isEqualTo(200);
    List<String> lines = new CopyOnWriteArrayList<>();
    readers.submit(() -> {
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
        reader.lines().forEach(lines::add);
      }
      return null;
    });

    client
        .configMaps()
        .resource(EmbeddedKubernetesApiCrudTest.configMap("new-one-" + suffix, java.util.Map.of()))
        .create();

    await().atMost(PROMPTLY).until(() -> !lines.isEmpty());
    JsonNode event = Json.parse(lines.get(0));
    assertThat(event.path("type").asText()).isEqualTo("ADDED");
    assertThat(event.path("object").path("metadata").path("name").asText())
        .as("the existing ConfigMap is not replayed")
        .isEqualTo("new-one-" + suffix);
    watch.body().close();
  }

  @Test
  void aWebSocketWatchGetsEachEventAsATextFrame() {
    List<String> frames = new CopyOnWriteArrayList<>();
    StringBuilder partial = new StringBuilder();
    java.net.http.WebSocket socket =
        java.net.http.HttpClient.newBuilder()
            .sslContext(RawHttp.trusting(api.caCertificateData()))
            .build()
            .newWebSocketBuilder()
            .header("Authorization", "Bearer " + api.adminToken())
            .buildAsync(
                java.net.URI.create(
                    api.url().replace("https:", "wss:")
                        + "/api/v1/namespaces/default/configmaps?watch=true&labelSelector=transport%3Dws"),
                new java.net.http.WebSocket.Listener() {
                  @Override
                  public java.util.concurrent.CompletionStage<?> onText(
                      java.net.http.WebSocket ws, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                      frames.add(partial.toString());
                      partial.setLength(0);
                    }
                    ws.request(1);
                    return null;
                  }
                })
            .join();

    var labelled = EmbeddedKubernetesApiCrudTest.configMap("over-websocket", java.util.Map.of());
    labelled.getMetadata().setLabels(java.util.Map.of("transport", "ws"));
    client
        .configMaps()
        .resource(EmbeddedKubernetesApiCrudTest.configMap("not-labelled", java.util.Map.of()))
        .create();
    client.configMaps().resource(labelled).create();

    await().atMost(PROMPTLY).until(() -> !frames.isEmpty());
    JsonNode event = Json.parse(frames.get(0));
    assertThat(event.path("type").asText()).isEqualTo("ADDED");
    assertThat(event.at("/object/metadata/name").asText()).isEqualTo("over-websocket");
    socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done").join();
  }

  @Test
  void aWatchOnOneObjectsPathSeesOnlyThatObject() throws Exception {
    HttpResponse<InputStream> watch =
        new RawHttp(api)
            .stream(
                "/api/v1/namespaces/default/configmaps/the-one?watch=true",
                HttpResponse.BodyHandlers.ofInputStream());
    List<String> lines = new CopyOnWriteArrayList<>();
    readers.submit(() -> {
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
        reader.lines().forEach(lines::add);
      }
      return null;
    });

    client
        .configMaps()
        .resource(EmbeddedKubernetesApiCrudTest.configMap("another-one", java.util.Map.of()))
        .create();
    client
        .configMaps()
        .resource(EmbeddedKubernetesApiCrudTest.configMap("the-one", java.util.Map.of()))
        .create();

    await().atMost(PROMPTLY).until(() -> !lines.isEmpty());
    assertThat(lines)
        .allSatisfy(line -> assertThat(line).contains("\"the-one\"").doesNotContain("another-one"));
    watch.body().close();
  }

  private static Pod pod(String name, String run) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels("threadline.dev/run", run)
        .addToAnnotations("a", "b")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .build();
  }

  /** Records informer events as "ACTION name". */
  private static final class Recorder<T extends io.fabric8.kubernetes.api.model.HasMetadata>
      implements ResourceEventHandler<T> {
    final List<String> log = new CopyOnWriteArrayList<>();

    boolean has(String entry) {
      return log.contains(entry);
    }

    @Override
    public void onAdd(T obj) {
      log.add("ADDED " + obj.getMetadata().getName());
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      if (!oldObj
          .getMetadata()
          .getResourceVersion()
          .equals(newObj.getMetadata().getResourceVersion())) {
        log.add("UPDATED " + newObj.getMetadata().getName());
      }
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      log.add("DELETED " + obj.getMetadata().getName());
    }
  }
}
