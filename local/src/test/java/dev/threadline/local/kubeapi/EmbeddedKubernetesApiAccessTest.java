package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Who reaches the API, and where: a TLS listener for kubectl and everything outside the process, a
 * plain-HTTP one on loopback for this process's clients, and on both alike the bearer tokens — the
 * administrator's opens everything, a service account's its namespace. Chunked watches on both
 * listeners are in {@link EmbeddedKubernetesApiWatchTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiAccessTest {
  private static final String THREADS = "/apis/threadline.dev/v1alpha1/namespaces/default/threads";
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private EmbeddedKubernetesApi api;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
  }

  @AfterAll
  void stop() {
    api.close();
  }

  @ParameterizedTest
  @EnumSource(RawHttp.Listener.class)
  void requestsWithoutTheTokenGet401ButProbesAnswer(RawHttp.Listener listener) {
    RawHttp anonymous = listener.client(api, null);
    HttpResponse<String> refused = anonymous.get("/api/v1/namespaces");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(Json.parse(refused.body()).path("reason").asText()).isEqualTo("Unauthorized");
    assertThat(listener.client(api, "wrong").get("/apis").statusCode()).isEqualTo(401);
    assertThat(anonymous.get("/healthz").statusCode()).isEqualTo(200);
    assertThat(listener.client(api, api.adminToken()).get("/api/v1/namespaces").statusCode())
        .isEqualTo(200);
  }

  @ParameterizedTest
  @EnumSource(RawHttp.Listener.class)
  void aServiceAccountDoesWhatItsRoleBindingGrantsInItsNamespaceOnly(RawHttp.Listener listener) {
    String account = "trigger-" + listener;
    RawHttp admin = listener.client(api, api.adminToken());
    String role =
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
            + "\"metadata\":{\"name\":\"test-"
            + account
            + "\"},\"rules\":[{\"apiGroups\":[\"threadline.dev\"],\"resources\":[\"schedules\"],"
            + "\"verbs\":[\"get\",\"list\"]},{\"apiGroups\":[\"threadline.dev\"],"
            + "\"resources\":[\"threads\",\"runs\"],\"verbs\":[\"get\",\"list\",\"create\"]}]}";
    assertThat(
            admin
                .send(
                    "POST",
                    "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                    "application/json",
                    role)
                .statusCode())
        .isEqualTo(201);
    RawHttp trigger = listener.client(api, api.issueServiceAccountToken("default", account));
    // Nothing is granted before the binding.
    assertThat(
            trigger.get("/apis/threadline.dev/v1alpha1/namespaces/default/schedules").statusCode())
        .isEqualTo(403);
    String binding =
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
            + "\"metadata\":{\"name\":\""
            + account
            + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\","
            + "\"name\":\"test-"
            + account
            + "\"},\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\""
            + account
            + "\"}]}";
    assertThat(
            admin
                .send(
                    "POST",
                    "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
                    "application/json",
                    binding)
                .statusCode())
        .isEqualTo(201);
    assertThat(
            trigger.get("/apis/threadline.dev/v1alpha1/namespaces/default/schedules").statusCode())
        .isEqualTo(200);
    String thread =
        "{\"apiVersion\":\"threadline.dev/v1alpha1\",\"kind\":\"Thread\","
            + "\"metadata\":{\"name\":\"thread-from-trigger-"
            + listener.ordinal()
            + "\"},\"spec\":{}}";
    assertThat(trigger.send("POST", THREADS, "application/json", thread).statusCode())
        .isEqualTo(201);
    // A firing lists the namespace's threads to count them against the user's thread limit.
    assertThat(trigger.get(THREADS).statusCode()).isEqualTo(200);

    HttpResponse<String> otherNamespace =
        trigger.get("/apis/threadline.dev/v1alpha1/namespaces/kube-system/threads");
    assertThat(otherNamespace.statusCode()).isEqualTo(403);
    assertThat(Json.parse(otherNamespace.body()).path("message").asText())
        .isEqualTo(
            "threads.threadline.dev is forbidden: User \"system:serviceaccount:default:"
                + account
                + "\" cannot list resource \"threads\" in API group \"threadline.dev\" in the"
                + " namespace \"kube-system\"");
    assertThat(trigger.get("/api/v1/namespaces/default/secrets").statusCode()).isEqualTo(403);
    assertThat(
            trigger
                .send(
                    "DELETE",
                    THREADS + "/thread-from-trigger-" + listener.ordinal(),
                    "application/json",
                    "")
                .statusCode())
        .isEqualTo(403);
  }

  @Test
  void theKubeconfigCarriesTheTokenAndOnlyItsOwnerReadsIt(@TempDir Path temp) throws Exception {
    Path kubeconfig = api.writeKubeconfig(temp.resolve("kubeconfig"));
    assertThat(Files.readString(kubeconfig)).contains("token: " + api.adminToken());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)))
        .isEqualTo("rw-------");
  }

  @Test
  void theInProcessListenerIsPlainHttpOnLoopbackBesideTheTlsOne() {
    URI inProcess = URI.create(api.inProcessUrl());
    assertThat(inProcess.getScheme()).isEqualTo("http");
    assertThat(inProcess.getHost()).isEqualTo("127.0.0.1");
    assertThat(inProcess.getPort()).isPositive().isNotEqualTo(api.port());
    assertThat(api.url()).startsWith("https://");
    try (KubernetesClient client = api.newClient()) {
      assertThat(client.getMasterUrl().toString()).startsWith(api.inProcessUrl());
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  @Test
  void aClientOfTheKubeconfigStillWatchesOverTls(@TempDir Path temp) throws Exception {
    Path kubeconfig = api.writeKubeconfig(temp.resolve("kubeconfig"));
    Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
    assertThat(config.getMasterUrl()).startsWith("https://");
    List<String> seen = new CopyOnWriteArrayList<>();
    try (KubernetesClient overTls = ThreadlineClients.builder("test").withConfig(config).build();
        KubernetesClient inProcess = api.newClient()) {
      overTls
          .resources(Environment.class)
          .inNamespace("default")
          .inform(
              new ResourceEventHandler<>() {
                @Override
                public void onAdd(Environment environment) {
                  seen.add(environment.getMetadata().getName());
                }

                @Override
                public void onUpdate(Environment before, Environment after) {}

                @Override
                public void onDelete(Environment environment, boolean finalStateUnknown) {}
              });
      inProcess
          .resources(Environment.class)
          .resource(EmbeddedKubernetesApiCrudTest.environment("env-seen-over-tls"))
          .create();
      await().atMost(PROMPTLY).until(() -> seen.contains("env-seen-over-tls"));
    }
  }

  @Test
  void anOfferedH2cUpgradeIsIgnoredAndAnsweredInHttp11() throws Exception {
    // The JDK client, allowed HTTP/2, offers an h2c upgrade on a new plain connection.
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(URI.create(api.inProcessUrl() + "/api/v1/namespaces"))
                .header("Authorization", "Bearer " + api.adminToken())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
  }
}
