package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectStore;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded API refuses what a cluster refuses by size, with kube-apiserver's codes and
 * messages: ConfigMap and Secret values over 1 MiB (422), objects over etcd's 1.5 MiB (500, etcd's
 * message) on every kind of write, and request bodies over 3 MiB (413), each at and just over its
 * boundary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiSizeLimitsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MIB = 1024 * 1024;
  private static final String RUNS = "/apis/threadline.dev/v1alpha1/namespaces/default/runs";
  private static final String CONFIG_MAPS = "/api/v1/namespaces/default/configmaps";
  private static final String ETCD_TOO_LARGE = "etcdserver: request is too large";

  private EmbeddedKubernetesApi api;
  private KubernetesClient client;
  private RawHttp http;
  private Path temp;

  @BeforeAll
  void start(@TempDir Path temp) {
    this.temp = temp;
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    // No retries: fabric8 retries a 500 (as etcd's refusal is) ten times by default.
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(api.inProcessUrl())
            .withOauthToken(api.adminToken())
            .withNamespace("default")
            .withHttp2Disable(true)
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    http = new RawHttp(api);
  }

  @AfterAll
  void stop() {
    client.close();
    api.close();
  }

  // ---- ConfigMap and Secret values: 1 MiB ----

  @Test
  void aConfigMapMayHoldOneMebibyteOfDataAndBinaryDataTogetherNotOneByteMore() {
    assertThat(client.configMaps().resource(configMap("cm-at", MIB - 10, 10)).create()).isNotNull();
    // Bytes, not characters: 'é' is two bytes in UTF-8.
    assertThat(
            client
                .configMaps()
                .resource(
                    new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cm-utf8-at")
                        .endMetadata()
                        .withData(Map.of("e", "é".repeat(MIB / 2)))
                        .build())
                .create())
        .isNotNull();

    assertDataTooLong(
        () -> client.configMaps().resource(configMap("cm-over", MIB - 10, 11)).create(),
        "ConfigMap",
        "cm-over",
        "[]");
    assertDataTooLong(
        () ->
            client
                .configMaps()
                .resource(
                    new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cm-utf8-over")
                        .endMetadata()
                        .withData(Map.of("e", "é".repeat(MIB / 2) + "x"))
                        .build())
                .create(),
        "ConfigMap",
        "cm-utf8-over",
        "[]");
  }

  @Test
  void updatesAndPatchesThatGrowAConfigMapPastTheLimitAreRefused() {
    ConfigMap stored = client.configMaps().resource(configMap("cm-grown", MIB, 0)).create();

    ConfigMap grown = configMap("cm-grown", MIB, 1);
    grown.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
    assertDataTooLong(
        () -> client.configMaps().resource(grown).update(), "ConfigMap", "cm-grown", "[]");
    assertDataTooLong(
        () ->
            client
                .configMaps()
                .withName("cm-grown")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"more\":\"x\"}}"),
        "ConfigMap",
        "cm-grown",
        "[]");
    assertDataTooLong(
        () ->
            client
                .configMaps()
                .withName("cm-grown")
                .patch(
                    PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/data/more\",\"value\":\"x\"}]"),
        "ConfigMap",
        "cm-grown",
        "[]");
    assertThat(client.configMaps().withName("cm-grown").get().getMetadata().getResourceVersion())
        .as("nothing was written")
        .isEqualTo(stored.getMetadata().getResourceVersion());
  }

  @Test
  void aSecretMayHoldOneMebibyteOfDecodedDataNotOneByteMore() {
    assertThat(client.secrets().resource(secret("s-at", MIB)).create()).isNotNull();

    assertDataTooLong(
        () -> client.secrets().resource(secret("s-over", MIB + 1)).create(),
        "Secret",
        "s-over",
        "data");
    assertDataTooLong(
        () ->
            client
                .secrets()
                .resource(
                    new SecretBuilder()
                        .withNewMetadata()
                        .withName("s-string-over")
                        .endMetadata()
                        .withStringData(Map.of("k", "x".repeat(MIB + 1)))
                        .build())
                .create(),
        "Secret",
        "s-string-over",
        "data");
  }

  // ---- any object: etcd's 1.5 MiB ----

  @Test
  void anObjectMayBeStoredAtEtcdsLimitButNotOneByteOverOnUpdateOrPatch() throws Exception {
    JsonNode created = created(run("run-grown", "m"));
    JsonNode atLimit = resized(created, ObjectStore.MAX_OBJECT_BYTES, "spec", "agent");
    HttpResponse<String> put =
        http.send("PUT", RUNS + "/run-grown", "application/json", atLimit.toString());
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(put.body().getBytes(StandardCharsets.UTF_8))
        .as("the stored object is exactly at the limit")
        .hasSize(ObjectStore.MAX_OBJECT_BYTES);
    String agent = MAPPER.readTree(put.body()).path("spec").path("agent").asText();

    assertEtcdTooLarge(
        http.send(
            "PATCH",
            RUNS + "/run-grown",
            "application/merge-patch+json",
            "{\"spec\":{\"agent\":\"" + agent + "m\"}}"));
    assertEtcdTooLarge(
        http.send(
            "PATCH",
            RUNS + "/run-grown",
            "application/json-patch+json",
            "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"a\":\"b\"}}]"));
    assertThatThrownBy(() ->
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Run")
                .withName("run-grown")
                .edit(run -> {
                  run.getMetadata().setLabels(Map.of("a", "b"));
                  return run;
                }))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(500);
              assertThat(e.getStatus().getMessage()).isEqualTo(ETCD_TOO_LARGE);
              assertThat(e.getStatus().getReason()).isNull();
            });
    assertThat(http.get(RUNS + "/run-grown").body().getBytes(StandardCharsets.UTF_8))
        .as("the stored object is unchanged")
        .hasSize(ObjectStore.MAX_OBJECT_BYTES);
  }

  @Test
  void statusUpdatesAreBoundedByEtcdsLimitToo() throws Exception {
    JsonNode created = created(run("run-status", "m"));
    ObjectNode withStatus = created.deepCopy();
    withStatus.putObject("status").put("phase", "running").put("response", "r");
    HttpResponse<String> small =
        http.send("PUT", RUNS + "/run-status/status", "application/json", withStatus.toString());
    assertThat(small.statusCode()).as(small.body()).isEqualTo(200);

    JsonNode atLimit =
        resized(MAPPER.readTree(small.body()), ObjectStore.MAX_OBJECT_BYTES, "status", "response");
    HttpResponse<String> put =
        http.send("PUT", RUNS + "/run-status/status", "application/json", atLimit.toString());
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(put.body().getBytes(StandardCharsets.UTF_8)).hasSize(ObjectStore.MAX_OBJECT_BYTES);

    String response = MAPPER.readTree(put.body()).path("status").path("response").asText();
    assertEtcdTooLarge(
        http.send(
            "PATCH",
            RUNS + "/run-status/status",
            "application/merge-patch+json",
            "{\"status\":{\"response\":\"" + response + "r\"}}"));
  }

  @Test
  void aCreateOverEtcdsLimitIsRefusedAndNothingIsStored() {
    assertEtcdTooLarge(
        http.send(
            "POST",
            RUNS,
            "application/json",
            run("run-huge", "m".repeat(ObjectStore.MAX_OBJECT_BYTES)).toString()));
    assertThat(http.get(RUNS + "/run-huge").statusCode()).isEqualTo(404);
  }

  // ---- request bodies: 3 MiB ----

  @Test
  void aBodyOfThreeMebibytesIsReadAndOneByteMoreIsRefused() {
    HttpResponse<String> atLimit =
        http.send(
            "POST",
            CONFIG_MAPS,
            "application/json",
            padded(configMapJson("cm-body-at"), SizeLimits.MAX_REQUEST_BODY_BYTES));
    assertThat(atLimit.statusCode()).as(atLimit.body()).isEqualTo(201);

    assertBodyTooLarge(
        http.send(
            "POST",
            CONFIG_MAPS,
            "application/json",
            padded(configMapJson("cm-body-over"), SizeLimits.MAX_REQUEST_BODY_BYTES + 1)));
    assertThat(http.get(CONFIG_MAPS + "/cm-body-over").statusCode()).isEqualTo(404);
  }

  @Test
  void aBodyWithoutALengthIsCutOffAtTheLimitToo() {
    String over = padded(configMapJson("cm-chunked-over"), SizeLimits.MAX_REQUEST_BODY_BYTES + 1);
    assertBodyTooLarge(
        http.sendStreamed(
            "POST",
            CONFIG_MAPS,
            "application/json",
            () -> new java.io.ByteArrayInputStream(over.getBytes(StandardCharsets.UTF_8))));
    String atLimit = padded(configMapJson("cm-chunked-at"), SizeLimits.MAX_REQUEST_BODY_BYTES);
    HttpResponse<String> read =
        http.sendStreamed(
            "POST",
            CONFIG_MAPS,
            "application/json",
            () -> new java.io.ByteArrayInputStream(atLimit.getBytes(StandardCharsets.UTF_8)));
    assertThat(read.statusCode()).as(read.body()).isEqualTo(201);
  }

  @Test
  void anEndlessBodyIsAnsweredWithoutBeingRead() {
    HttpResponse<String> answer =
        http.sendStreamed("POST", CONFIG_MAPS, "application/json", EndlessSpaces::new);
    assertBodyTooLarge(answer);
    assertThat(http.get(CONFIG_MAPS).statusCode()).as("the API serves on").isEqualTo(200);
  }

  @Test
  void aFabric8WriteOverThreeMebibytesGetsTheSameAnswer() {
    assertThatThrownBy(() ->
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Run")
                .resource(
                    MAPPER.convertValue(
                        run("run-body", "m".repeat(SizeLimits.MAX_REQUEST_BODY_BYTES)),
                        GenericKubernetesResource.class))
                .create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(413);
              assertThat(e.getStatus().getReason()).isEqualTo("RequestEntityTooLarge");
              assertThat(e.getStatus().getMessage())
                  .isEqualTo("Request entity too large: limit is 3145728");
            });
  }

  // ---- the real kubectl ----

  @Test
  void kubectlPrintsWhatItPrintsAgainstACluster() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(Kubectl.BINARY), "kubectl is not installed at " + Kubectl.BINARY);
    Kubectl kubectl =
        new Kubectl(api.writeKubeconfig(temp.resolve("kubeconfig")), temp.resolve("cache"));

    // From a manifest: kubectl's own "create configmap" sends protobuf, which the API does not
    // read.
    Path overData = temp.resolve("over-data.json");
    Files.writeString(overData, MAPPER.writeValueAsString(configMap("cm-kubectl", MIB, 1)));
    Kubectl.Result data = kubectl.run("create", "-f", overData.toString());
    assertThat(data.exitCode()).isEqualTo(1);
    assertThat(data.err())
        .contains(
            "The ConfigMap \"cm-kubectl\" is invalid: []: Too long: must have at most 1048576"
                + " bytes");

    Path overEtcd = temp.resolve("over-etcd.json");
    Files.writeString(overEtcd, run("run-kubectl", "m".repeat(MIB * 2)).toString());
    Kubectl.Result object = kubectl.run("create", "-f", overEtcd.toString());
    assertThat(object.exitCode()).isEqualTo(1);
    assertThat(object.err())
        .contains("Error from server: error when creating \"" + overEtcd + "\": " + ETCD_TOO_LARGE);

    Path overBody = temp.resolve("over-body.json");
    Files.writeString(overBody, run("run-kubectl", "m".repeat(MIB * 3)).toString());
    Kubectl.Result body = kubectl.run("create", "-f", overBody.toString());
    assertThat(body.exitCode()).isEqualTo(1);
    assertThat(body.err())
        .contains(
            "Error from server (RequestEntityTooLarge): error when creating \""
                + overBody
                + "\": Request entity too large: limit is 3145728");
  }

  // ---- helpers ----

  private static ConfigMap configMap(String name, int dataBytes, int binaryBytes) {
    ConfigMapBuilder builder =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withData(Map.of("text", "x".repeat(dataBytes)));
    if (binaryBytes > 0) {
      builder.withBinaryData(
          Map.of("binary", Base64.getEncoder().encodeToString(new byte[binaryBytes])));
    }
    return builder.build();
  }

  private static Secret secret(String name, int bytes) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(Map.of("k", Base64.getEncoder().encodeToString(new byte[bytes])))
        .build();
  }

  /**
   * A Run whose bulk is in {@code spec.agent}, a field without a schema bound (the schema bounds
   * {@code spec.message} to 1 MiB, which validation refuses before the store sees it).
   */
  private static ObjectNode run(String name, String agent) {
    ObjectNode run = MAPPER.createObjectNode();
    run.put("apiVersion", "threadline.dev/v1alpha1").put("kind", "Run");
    run.putObject("metadata").put("name", name).put("namespace", "default");
    run.putObject("spec").put("thread", "thread-x").put("message", "m").put("agent", agent);
    return run;
  }

  private static String configMapJson(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"data\":{\"k\":\"v\"}}";
  }

  /** {@code json} followed by spaces, {@code bytes} long in all: JSON all the same. */
  private static String padded(String json, int bytes) {
    return json + " ".repeat(bytes - json.length());
  }

  private JsonNode created(ObjectNode object) throws Exception {
    HttpResponse<String> created = http.send("POST", RUNS, "application/json", object.toString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return MAPPER.readTree(created.body());
  }

  /**
   * {@code stored} (as the API answered it) with the text at {@code path} grown so that the next
   * write stores exactly {@code bytes}: the next revision may take one digit more.
   */
  private static JsonNode resized(JsonNode stored, int bytes, String... path) throws Exception {
    ObjectNode copy = stored.deepCopy();
    ObjectNode parent = copy;
    for (int i = 0; i < path.length - 1; i++) {
      parent = (ObjectNode) parent.get(path[i]);
    }
    String field = path[path.length - 1];
    String revision = stored.path("metadata").path("resourceVersion").asText();
    int nextRevisionGrowth =
        Long.toString(Long.parseLong(revision) + 1).length() - revision.length();
    int now = MAPPER.writeValueAsBytes(stored).length;
    String text = parent.path(field).asText();
    parent.put(field, text + "x".repeat(bytes - now - nextRevisionGrowth));
    return copy;
  }

  private static void assertDataTooLong(Runnable write, String kind, String name, String field) {
    assertThatThrownBy(write::run)
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              Status status = e.getStatus();
              assertThat(status.getReason()).isEqualTo("Invalid");
              assertThat(status.getMessage())
                  .isEqualTo(
                      kind
                          + " \""
                          + name
                          + "\" is invalid: "
                          + field
                          + ": Too long: must have at most 1048576 bytes");
              assertThat(status.getDetails().getKind()).isEqualTo(kind);
              assertThat(status.getDetails().getName()).isEqualTo(name);
              assertThat(status.getDetails().getCauses())
                  .singleElement()
                  .satisfies(cause -> {
                    assertThat(cause.getReason()).isEqualTo("FieldValueTooLong");
                    assertThat(cause.getField()).isEqualTo(field);
                    assertThat(cause.getMessage())
                        .isEqualTo("Too long: must have at most 1048576 bytes");
                  });
            });
  }

  private static void assertEtcdTooLarge(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(500);
    JsonNode status = readTree(answer.body());
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("message").asText()).isEqualTo(ETCD_TOO_LARGE);
    assertThat(status.has("reason")).as("kube-apiserver gives no reason").isFalse();
    assertThat(status.path("code").asInt()).isEqualTo(500);
  }

  private static void assertBodyTooLarge(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
    JsonNode status = readTree(answer.body());
    assertThat(status.path("reason").asText()).isEqualTo("RequestEntityTooLarge");
    assertThat(status.path("message").asText())
        .isEqualTo("Request entity too large: limit is 3145728");
    assertThat(status.path("code").asInt()).isEqualTo(413);
  }

  private static JsonNode readTree(String body) {
    try {
      return MAPPER.readTree(body);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A request body that never ends. */
  private static final class EndlessSpaces extends InputStream {
    @Override
    public int read() {
      return ' ';
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      java.util.Arrays.fill(buffer, offset, offset + length, (byte) ' ');
      return length;
    }
  }
}
