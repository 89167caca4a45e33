package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** The NetworkPolicy of each build's Pod ({@link BuildNetworkPolicy}). */
@KubernetesDependent(informer = @Informer(labelSelector = EnvironmentValues.BUILD_KIND_LABEL))
public class EnvironmentBuildNetworkPolicyDependentResource
    extends BuildDependentResource<NetworkPolicy> {
  public static final String NAME = "environment-build-network-policy";

  public EnvironmentBuildNetworkPolicyDependentResource() {
    super(NetworkPolicy.class);
  }

  @Override
  NetworkPolicy desired(
      Environment environment, EnvironmentBuilds.StartedBuild build, EnvironmentBuilds builds) {
    return BuildNetworkPolicy.desired(
        environment,
        build.kind(),
        build.name(),
        build.plan().hash(),
        builds.settings().buildPods(),
        builds.settings().network());
  }
}
