package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

/**
 * The build context of one build: a ConfigMap with the effective Dockerfile, named like its Job and
 * mounted at {@code /workspace}. Immutable: a changed configuration is a new build with a new name.
 */
final class BuildContextConfigMap {
  static final String DOCKERFILE_KEY = "Dockerfile";

  private BuildContextConfigMap() {}

  static ConfigMap desired(
      Environment environment, BuildKind kind, String name, BuildPlan.Buildable plan) {
    return new ConfigMapBuilder()
        .withMetadata(BuildLabels.metadata(environment, kind, name, plan.hash()))
        .withImmutable(true)
        .addToData(DOCKERFILE_KEY, plan.dockerfile().content())
        .build();
  }
}
