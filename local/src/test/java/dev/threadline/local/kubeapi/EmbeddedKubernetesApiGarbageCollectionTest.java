package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.StoreOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The embedded API collects garbage as a cluster does: an object none of whose owners exists is
 * deleted whenever it appears — created after its owner was deleted, left from before a restart —
 * and one with an owner left is kept.
 */
class EmbeddedKubernetesApiGarbageCollectionTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void anObjectCreatedAfterItsOwnerWasDeletedIsCollectedWithItsOwnDependents() {
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
        KubernetesClient client = api.newClient()) {
      ConfigMap owner = client.resource(configMap("owner", List.of())).create();
      client.resource(owner).delete();
      await().atMost(WAIT).until(() -> client.configMaps().withName("owner").get() == null);

      // A controller acting on a stale cache: a child of the deleted owner, and its own child.
      ConfigMap late = client.resource(configMap("late", List.of(ownedBy(owner)))).create();
      client.resource(configMap("later", List.of(ownedBy(late)))).create();

      await()
          .atMost(WAIT)
          .until(() ->
              client.configMaps().withName("late").get() == null
                  && client.configMaps().withName("later").get() == null);
    }
  }

  @Test
  void anOwnerReplacedUnderTheSameNameDoesNotKeepTheOldOnesDependents() {
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
        KubernetesClient client = api.newClient()) {
      ConfigMap first = client.resource(configMap("owner", List.of())).create();
      client.resource(first).delete();
      ConfigMap second = client.resource(configMap("owner", List.of())).create();

      client.resource(configMap("of-first", List.of(ownedBy(first)))).create();
      client.resource(configMap("of-second", List.of(ownedBy(second)))).create();

      await().atMost(WAIT).until(() -> client.configMaps().withName("of-first").get() == null);
      assertThat(client.configMaps().withName("of-second").get()).isNotNull();
    }
  }

  @Test
  void anObjectWithAnOwnerLeftIsKept() {
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
        KubernetesClient client = api.newClient()) {
      ConfigMap living = client.resource(configMap("living", List.of())).create();
      ConfigMap gone = client.resource(configMap("gone", List.of())).create();
      client.resource(gone).delete();
      client.resource(configMap("shared", List.of(ownedBy(gone), ownedBy(living)))).create();
      // Owned by a kind the API does not know: it cannot be checked, so it is not deleted.
      client
          .resource(
              configMap(
                  "of-unknown",
                  List.of(
                      new OwnerReferenceBuilder()
                          .withApiVersion("example.test/v1")
                          .withKind("Unknown")
                          .withName("x")
                          .withUid(UUID.randomUUID().toString())
                          .build())))
          .create();
      // The marker comes after both in the collector's queue: once it is gone, they were judged.
      client.resource(configMap("marker", List.of(ownedBy(gone)))).create();

      await().atMost(WAIT).until(() -> client.configMaps().withName("marker").get() == null);
      assertThat(client.configMaps().withName("shared").get()).isNotNull();
      assertThat(client.configMaps().withName("of-unknown").get()).isNotNull();
    }
  }

  @Test
  void anOrphanLeftInTheStoreIsCollectedAtStart() throws Exception {
    Path folder = Files.createTempDirectory("threadline-gc");
    Path file = folder.resolve("kubernetes.db");
    EmbeddedApiSettings settings = EmbeddedApiSettings.builder().storeFile(file).build();
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(settings)) {
      // Started once, so the namespaces and CRDs are there.
    }
    try (ObjectStore store = ObjectStore.open(file, StoreOptions.defaults())) {
      ConfigMap orphan =
          configMap(
              "orphan",
              List.of(
                  new OwnerReferenceBuilder()
                      .withApiVersion("v1")
                      .withKind("ConfigMap")
                      .withName("long-gone")
                      .withUid(UUID.randomUUID().toString())
                      .build()));
      orphan.getMetadata().setUid(UUID.randomUUID().toString());
      store.create(
          new ObjectKey("configmaps", "default", "orphan"),
          Json.MAPPER.convertValue(orphan, ObjectNode.class));
    }
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(settings);
        KubernetesClient client = api.newClient()) {
      await().atMost(WAIT).until(() -> client.configMaps().withName("orphan").get() == null);
    }
  }

  private static ConfigMap configMap(String name, List<OwnerReference> owners) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withOwnerReferences(owners)
        .endMetadata()
        .build();
  }

  private static OwnerReference ownedBy(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .build();
  }
}
