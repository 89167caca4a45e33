package dev.threadline.operator.support;

import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.WarmPool;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Environments with a warm pool, as tests create them. */
public final class PoolEnvironments {
  private PoolEnvironments() {}

  /** Creates an Environment (of the default image) that asks for {@code size} pool sandboxes. */
  public static Environment create(
      KubernetesClient client, String namespace, String name, int size) {
    Environment environment = new Environment();
    environment.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(name);
    spec.setBuildPolicy(BuildPolicy.MANUAL); // the tests play its builds
    spec.setWarmPool(new WarmPool(size));
    environment.setSpec(spec);
    return client.resource(environment).create();
  }
}
