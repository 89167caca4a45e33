package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** The build-context ConfigMap of each build ({@link BuildContextConfigMap}). */
@KubernetesDependent(informer = @Informer(labelSelector = EnvironmentValues.BUILD_KIND_LABEL))
public class EnvironmentBuildContextDependentResource extends BuildDependentResource<ConfigMap> {
  public static final String NAME = "environment-build-context";

  public EnvironmentBuildContextDependentResource() {
    super(ConfigMap.class);
  }

  @Override
  ConfigMap desired(
      Environment environment, EnvironmentBuilds.StartedBuild build, EnvironmentBuilds builds) {
    return BuildContextConfigMap.desired(environment, build.kind(), build.name(), build.plan());
  }
}
