package dev.threadline.kube.builds;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * {@code <environment>-build-logs}: the ConfigMap where the operator keeps the (bounded) log of an
 * Environment's last build and last test build after their Pods and Jobs are gone, for {@code GET
 * .../build/logs}. Its name and keys, and reading it; the operator writes it.
 */
public final class StoredBuildLogs {
  /** The key of the last image build's log. */
  public static final String IMAGE_BUILD_KEY = "build.log";

  /** The key of the last test build's log. */
  public static final String TEST_BUILD_KEY = "test.log";

  private static final String SUFFIX = "-build-logs";

  private StoredBuildLogs() {}

  /** The ConfigMap of the Environment {@code environmentName}. */
  public static String configMapName(String environmentName) {
    return environmentName + SUFFIX;
  }

  /** The stored log under {@code key}, if the ConfigMap and the key exist. */
  public static Optional<String> read(
      KubernetesClient client, String namespace, String environmentName, String key) {
    ConfigMap logs =
        client.configMaps().inNamespace(namespace).withName(configMapName(environmentName)).get();
    return Optional.ofNullable(logs).map(ConfigMap::getData).map(data -> data.get(key));
  }
}
