package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store in a file: a restarted API holds what the previous one held, and resumes watches. */
class EmbeddedKubernetesApiRestartTest {
  @TempDir Path folder;

  private EmbeddedKubernetesApi start() {
    return EmbeddedKubernetesApi.start(
        EmbeddedApiSettings.builder().storeFile(folder.resolve("kubernetes.db")).build());
  }

  @Test
  void aRestartKeepsEveryKindOfObjectAndResumesWatches() {
    String seen;
    try (EmbeddedKubernetesApi api = start();
        KubernetesClient client = api.newClient()) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName("kept").endMetadata().build())
          .create();
      client
          .resources(Environment.class)
          .inNamespace("kept")
          .resource(EmbeddedKubernetesApiCrudTest.environment("env-kept"))
          .create();
      client
          .secrets()
          .inNamespace("kept")
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("secret")
                  .endMetadata()
                  .withStringData(Map.of("key", "value"))
                  .build())
          .create();
      ConfigMap created =
          client
              .configMaps()
              .inNamespace("kept")
              .resource(
                  new ConfigMapBuilder()
                      .withNewMetadata()
                      .withName("config")
                      .withLabels(Map.of("app", "kept"))
                      .endMetadata()
                      .withData(Map.of("a", "1"))
                      .build())
              .create();
      seen = created.getMetadata().getResourceVersion();
      created.setData(Map.of("a", "2"));
      client.configMaps().inNamespace("kept").resource(created).update();
    }

    try (EmbeddedKubernetesApi api = start();
        KubernetesClient client = api.newClient()) {
      assertThat(client.namespaces().withName("kept").get()).isNotNull();
      assertThat(client.resources(Environment.class).inNamespace("kept").withName("env-kept").get())
          .isNotNull();
      assertThat(client.secrets().inNamespace("kept").withName("secret").get().getData())
          .containsKey("key");
      assertThat(client.configMaps().inNamespace("kept").withLabel("app", "kept").list().getItems())
          .extracting(c -> c.getData().get("a"))
          .containsExactly("2");

      List<String> events = new CopyOnWriteArrayList<>();
      try (var watch =
          client
              .configMaps()
              .inNamespace("kept")
              .withResourceVersion(seen)
              .watch(
                  new Watcher<ConfigMap>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                      events.add(action + " " + resource.getData().get("a"));
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  })) {
        client.configMaps().inNamespace("kept").withName("config").delete();
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> events.equals(List.of("MODIFIED 2", "DELETED 2")));
      }
    }
  }
}
