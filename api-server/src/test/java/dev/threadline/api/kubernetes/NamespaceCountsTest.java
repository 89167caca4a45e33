package dev.threadline.api.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.junit.jupiter.api.Test;

class NamespaceCountsTest {
  private final NamespaceCounts<ConfigMap> store =
      new NamespaceCounts<>(new BasicItemStore<>(Cache::metaNamespaceKeyFunc));

  @Test
  void countsEachNamespaceThroughAddsReplacementsAndRemovals() {
    put("a", "one", "1");
    put("a", "two", "1");
    put("b", "one", "1");
    put("a", "one", "2"); // a new version of a held object is not one more

    assertThat(store.count("a")).isEqualTo(2);
    assertThat(store.count("b")).isEqualTo(1);
    assertThat(store.count("c")).isZero();

    store.remove("a/one");
    store.remove("a/missing");
    store.remove("b/one");

    assertThat(store.count("a")).isEqualTo(1);
    assertThat(store.count("b")).isZero();
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.get("a/two").getMetadata().getResourceVersion()).isEqualTo("1");
  }

  private void put(String namespace, String name, String version) {
    ConfigMap map =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .withResourceVersion(version)
            .endMetadata()
            .build();
    store.put(store.getKey(map), map);
  }
}
