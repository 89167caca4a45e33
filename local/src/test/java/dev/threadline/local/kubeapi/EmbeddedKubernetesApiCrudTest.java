package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The store behind the embedded API behaves like an API server for reads and writes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiCrudTest {
  private static final String ENVIRONMENTS =
      "/apis/threadline.dev/v1alpha1/namespaces/default/environments";

  private EmbeddedKubernetesApi api;
  private KubernetesClient client;
  private RawHttp http;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    client = api.newClient();
    http = new RawHttp(api);
  }

  @AfterAll
  void stop() {
    client.close();
    api.close();
  }

  @Test
  void storesTheThreadlineCrdsThemselves() {
    List<String> names =
        client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
            .map(crd -> crd.getMetadata().getName())
            .toList();

    assertThat(names).contains("environments.threadline.dev", "agents.threadline.dev");
    CustomResourceDefinition crd =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("environments.threadline.dev")
            .get();
    assertThat(crd.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("Established");
          assertThat(c.getStatus()).isEqualTo("True");
        });
  }

  @Test
  void aSecretsStringDataIsFoldedIntoDataAndNeverStored() {
    Secret created =
        client
            .secrets()
            .inNamespace("default")
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("string-data")
                    .endMetadata()
                    .addToData("kept", "a2VwdA==")
                    .addToData("replaced", "b2xk")
                    .addToStringData("replaced", "new")
                    .addToStringData("added", "plain text")
                    .build())
            .create();

    for (Secret secret :
        List.of(created, client.secrets().inNamespace("default").withName("string-data").get())) {
      assertThat(secret.getStringData()).isNullOrEmpty();
      assertThat(secret.getData())
          .containsOnly(
              Map.entry("kept", "a2VwdA=="),
              Map.entry("replaced", "bmV3"),
              Map.entry("added", "cGxhaW4gdGV4dA=="));
    }
  }

  @Test
  void statusSubresourceKeepsSpecAndStatusWritesApart() {
    Environment created =
        client.resources(Environment.class).resource(environment("env-status-split")).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(created.getStatus()).as("status is not writable on create").isNull();

    Environment withStatus = created;
    withStatus.setStatus(new EnvironmentStatus());
    withStatus.getStatus().setImageTag("img:1");
    Environment afterStatus =
        client.resources(Environment.class).resource(withStatus).updateStatus();
    assertThat(afterStatus.getStatus().getImageTag()).isEqualTo("img:1");
    assertThat(afterStatus.getMetadata().getGeneration())
        .as("status writes keep the generation")
        .isEqualTo(1L);

    afterStatus.getSpec().setDisplayName("Renamed");
    afterStatus.getStatus().setImageTag("sneaky");
    Environment afterSpec = client.resources(Environment.class).resource(afterStatus).update();
    assertThat(afterSpec.getSpec().getDisplayName()).isEqualTo("Renamed");
    assertThat(afterSpec.getStatus().getImageTag())
        .as("a main-resource write ignores status")
        .isEqualTo("img:1");
    assertThat(afterSpec.getMetadata().getGeneration())
        .as("a spec change bumps the generation")
        .isEqualTo(2L);
  }

  @Test
  void staleResourceVersionIsAConflictOnMainResourceAndStatus() {
    Environment created =
        client.resources(Environment.class).resource(environment("env-locking")).create();
    Environment stale = client.resources(Environment.class).withName("env-locking").get();
    created.getSpec().setDisplayName("First");
    client.resources(Environment.class).resource(created).update();

    stale.getSpec().setDisplayName("Second");
    assertThatThrownBy(() -> client.resources(Environment.class).resource(stale).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

    stale.setStatus(new EnvironmentStatus());
    assertThatThrownBy(() -> client.resources(Environment.class).resource(stale).updateStatus())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
  }

  @Test
  void statusPatchWithAQueryStringChangesTheStatus() {
    client.resources(Environment.class).resource(environment("env-query-status")).create();

    HttpResponse<String> response =
        http.send(
            "PATCH",
            ENVIRONMENTS + "/env-query-status/status?fieldManager=threadline-operator",
            "application/merge-patch+json",
            "{\"status\":{\"imageTag\":\"img:q\"}}");

    assertThat(response.statusCode()).isEqualTo(200);
    Environment stored = client.resources(Environment.class).withName("env-query-status").get();
    assertThat(stored.getStatus().getImageTag()).isEqualTo("img:q");
    assertThat(stored.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void mergePatchFollowsRfc7386() {
    client.resources(Environment.class).resource(environment("env-merge")).create();
    String conditions =
        "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"Building\"}]}}";
    patch(ENVIRONMENTS + "/env-merge/status", "application/merge-patch+json", conditions);
    patch(ENVIRONMENTS + "/env-merge/status", "application/merge-patch+json", conditions);
    patch(
        ENVIRONMENTS + "/env-merge",
        "application/merge-patch+json",
        "{\"spec\":{\"packages\":{\"system\":[\"curl\"]},\"description\":null}}");

    GenericKubernetesResource stored = environments().withName("env-merge").get();
    JsonNode node = Json.MAPPER.valueToTree(stored);
    assertThat(node.at("/status/conditions")).as("conditions do not grow").hasSize(1);
    assertThat(node.at("/spec/packages/system").toString())
        .as("a list is replaced")
        .isEqualTo("[\"curl\"]");
    assertThat(node.at("/spec").has("description")).as("null removes the key").isFalse();
    assertThat(node.at("/spec/displayName").asText()).isEqualTo("Demo");
  }

  @Test
  void mergePatchWithAStaleResourceVersionIsAConflict() {
    client.resources(Environment.class).resource(environment("env-merge-locked")).create();

    HttpResponse<String> response =
        http.send(
            "PATCH",
            ENVIRONMENTS + "/env-merge-locked",
            "application/merge-patch+json",
            "{\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"displayName\":\"X\"}}");

    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(Json.parse(response.body()).path("reason").asText()).isEqualTo("Conflict");
  }

  @Test
  void fabric8PatchesWork() {
    client.configMaps().resource(configMap("patched", Map.of("a", "1", "b", "2"))).create();

    client
        .configMaps()
        .withName("patched")
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/data/a\",\"value\":\"10\"}]");
    client
        .configMaps()
        .withName("patched")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"data\":{\"b\":null,\"c\":\"3\"}}");
    ConfigMap stored =
        client
            .configMaps()
            .withName("patched")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}");

    assertThat(stored.getData()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "10", "c", "3"));
    assertThat(stored.getMetadata().getLabels()).containsEntry("x", "y");
  }

  @Test
  void serverSideApplyNeedsAFieldManagerAndIsANoOpWhenNothingChanges() {
    String path = "/api/v1/namespaces/default/configmaps/ssa";
    String config = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa}\ndata: {a: '2'}\n";

    HttpResponse<String> unnamed = http.send("PATCH", path, "application/apply-patch+yaml", config);
    assertThat(unnamed.statusCode()).isEqualTo(422);
    assertThat(Json.parse(unnamed.body()).path("message").asText())
        .contains("fieldManager: Required value: is required for apply patch");

    HttpResponse<String> created =
        http.send("PATCH", path + "?fieldManager=git", "application/apply-patch+yaml", config);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> again =
        http.send("PATCH", path + "?fieldManager=git", "application/apply-patch+yaml", config);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(Json.text(Json.parse(again.body()), "metadata", "resourceVersion"))
        .isEqualTo(Json.text(Json.parse(created.body()), "metadata", "resourceVersion"));
    assertThat(Json.parse(again.body()).path("metadata").path("managedFields").get(0).toString())
        .contains("\"manager\":\"git\"", "\"operation\":\"Apply\"", "{\"f:data\":{\"f:a\":{}}}");
  }

  @Test
  void deletingAnObjectWithFinalizersMarksItUntilTheyAreRemoved() {
    Environment withFinalizer = environment("env-finalized");
    withFinalizer.getMetadata().setFinalizers(List.of("threadline.dev/cleanup"));
    client.resources(Environment.class).resource(withFinalizer).create();

    client.resources(Environment.class).withName("env-finalized").delete();

    Environment terminating = client.resources(Environment.class).withName("env-finalized").get();
    assertThat(terminating).isNotNull();
    assertThat(Instant.parse(terminating.getMetadata().getDeletionTimestamp()))
        .isBefore(Instant.now().plusSeconds(1));

    client
        .resources(Environment.class)
        .withName("env-finalized")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    assertThat(client.resources(Environment.class).withName("env-finalized").get()).isNull();
  }

  @Test
  void dependentsGoWithTheirOwner() {
    Environment owner =
        client.resources(Environment.class).resource(environment("env-owner")).create();
    ConfigMap dependent = configMap("owned", Map.of("Dockerfile", "FROM x"));
    dependent
        .getMetadata()
        .setOwnerReferences(
            List.of(
                new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                    .withApiVersion("threadline.dev/v1alpha1")
                    .withKind("Environment")
                    .withName("env-owner")
                    .withUid(owner.getMetadata().getUid())
                    .build()));
    client.configMaps().resource(dependent).create();

    client.resources(Environment.class).withName("env-owner").delete();

    assertThat(client.configMaps().withName("owned").get()).isNull();
  }

  @Test
  void aDeletedNamespaceTakesItsObjectsAlong() {
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("user-1")
                .endMetadata()
                .build())
        .create();
    client.configMaps().inNamespace("user-1").resource(configMap("in-user-1", Map.of())).create();
    client.configMaps().resource(configMap("in-default", Map.of())).create();

    client.namespaces().withName("user-1").delete();

    assertThat(client.configMaps().inNamespace("user-1").withName("in-user-1").get()).isNull();
    assertThat(client.configMaps().withName("in-default").get()).isNotNull();
  }

  @Test
  void aNewNamespaceIsActive() {
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("user-active")
                .endMetadata()
                .build())
        .create();

    assertThat(client.namespaces().withName("user-active").get().getStatus().getPhase())
        .isEqualTo("Active");
    assertThat(client.namespaces().withName("default").get().getStatus().getPhase())
        .isEqualTo("Active");
  }

  @Test
  void objectsCanOnlyBeCreatedInAnExistingNamespace() {
    assertThat(client.namespaces().list().getItems())
        .extracting(ns -> ns.getMetadata().getName())
        .contains("default", "kube-system", "kube-public", "kube-node-lease");
    assertThatThrownBy(() ->
            client
                .configMaps()
                .inNamespace("nowhere")
                .resource(configMap("lost", Map.of()))
                .create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getStatus().getMessage()).isEqualTo("namespaces \"nowhere\" not found");
            });
  }

  @Test
  void creatingAnExistingNameIsAlreadyExists() {
    client.configMaps().resource(configMap("twice", Map.of())).create();

    assertThatThrownBy(() -> client.configMaps().resource(configMap("twice", Map.of())).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(409);
              assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
              assertThat(e.getStatus().getMessage())
                  .isEqualTo("configmaps \"twice\" already exists");
            });
  }

  @Test
  void generateNameGivesAShortRandomSuffix() {
    ConfigMap generated =
        new ConfigMapBuilder()
            .withMetadata(new ObjectMetaBuilder().withGenerateName("run-").build())
            .build();

    ConfigMap created = client.configMaps().resource(generated).create();

    assertThat(created.getMetadata().getName()).matches("run-[a-z0-9]{5}");
  }

  @Test
  void podStatusIsWrittenThroughItsSubresourceOnly() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("pod-status")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .endContainer()
            .endSpec()
            .build();
    Pod created = client.pods().resource(pod).create();

    created.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
    Pod afterUpdate = client.pods().resource(created).update();
    assertThat(afterUpdate.getStatus() == null ? null : afterUpdate.getStatus().getPhase())
        .isNull();

    afterUpdate.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
    Pod afterStatus = client.pods().resource(afterUpdate).updateStatus();
    assertThat(afterStatus.getStatus().getPhase()).isEqualTo("Running");
  }

  private void patch(String path, String contentType, String body) {
    HttpResponse<String> response = http.send("PATCH", path, contentType, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
          GenericKubernetesResource,
          io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
          io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
      environments() {
    return client
        .genericKubernetesResources("threadline.dev/v1alpha1", "Environment")
        .inNamespace("default");
  }

  static Environment environment(String name) {
    Environment environment = new Environment();
    environment.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace("default").build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName("Demo");
    spec.setDescription("A demo environment");
    spec.setRuntimes(Map.of("python", "3.12"));
    spec.getPackages().setSystem(List.of("git"));
    environment.setSpec(spec);
    return environment;
  }

  static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(data)
        .build();
  }
}
