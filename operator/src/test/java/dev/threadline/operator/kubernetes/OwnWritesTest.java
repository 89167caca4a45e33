package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

/**
 * Own writes are held until the cache shows them or later, decided by equality of resource versions
 * only: the versions here are not numbers and not in any order.
 */
class OwnWritesTest {
  private static final String KEY = "ns/ledger";
  private final OwnWrites<ConfigMap> writes = new OwnWrites<>();

  @Test
  void aWriteFromTheCachedVersionIsHeldUntilTheCacheShowsAnotherVersion() {
    ConfigMap base = version("q");
    ConfigMap written = version("b");
    writes.wrote(base, written, base);
    assertThat(writes.newest(KEY, base)).isSameAs(written);
    ConfigMap later = version("a"); // another writer's, after this one: released as well
    assertThat(writes.newest(KEY, later)).isSameAs(later);
    assertThat(writes.newest(KEY, base)).as("let go").isSameAs(base);
  }

  @Test
  void aChainOfWritesIsNotReleasedByItsOwnEarlierWrites() {
    ConfigMap base = version("x");
    ConfigMap first = version("k");
    ConfigMap second = version("c");
    writes.wrote(base, first, base);
    writes.wrote(first, second, base); // the cache has not shown the first write yet
    writes.shown(first);
    assertThat(writes.newest(KEY, first)).as("the first write is older").isSameAs(second);
    assertThat(writes.newest(KEY, second)).isSameAs(second);
    assertThat(writes.newest(KEY, first)).as("released by its own version").isSameAs(first);
  }

  @Test
  void aWriteFromAVersionReadElsewhereWaitsForItsOwnVersion() {
    ConfigMap cached = version("m");
    ConfigMap read = version("r"); // from the API: versions between m and r were never seen here
    ConfigMap written = version("w");
    writes.wrote(read, written, cached);
    writes.shown(read);
    assertThat(writes.newest(KEY, version("p"))).isSameAs(written);
    writes.shown(written);
    ConfigMap after = version("z");
    assertThat(writes.newest(KEY, after)).isSameAs(after);
  }

  @Test
  void aCreateIsHeldUntilTheCacheHasTheObjectAndAnObjectGoneIsForgotten() {
    ConfigMap created = version("1");
    writes.wrote(null, created, null);
    assertThat(writes.newest(KEY, null)).isSameAs(created);
    writes.forget(created);
    assertThat(writes.newest(KEY, null)).isNull();
  }

  @Test
  void aWriteTheCacheShowsAlreadyIsNotHeld() {
    ConfigMap base = version("q");
    ConfigMap written = version("b");
    writes.wrote(base, written, written);
    assertThat(writes.newest(KEY, base)).as("nothing held").isSameAs(base);
  }

  private static ConfigMap version(String resourceVersion) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("ledger")
        .withResourceVersion(resourceVersion)
        .endMetadata()
        .build();
  }
}
