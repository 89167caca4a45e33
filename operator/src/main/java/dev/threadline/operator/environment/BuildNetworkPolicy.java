package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;

/**
 * The network of one build's Pod, named like its Job and created before it: no connection in, and
 * out only DNS and TCP on the configured ports to the configured addresses (the registry and
 * package mirrors, {@code builds.egress} in the chart) — by default every address outside the
 * cluster's ranges and link-local. The {@code RUN} steps of a build are the tenant's code; they
 * must not reach the cloud metadata endpoint, the API server or other tenants' Pods.
 */
final class BuildNetworkPolicy {
  private BuildNetworkPolicy() {}

  static NetworkPolicy desired(
      Environment environment,
      BuildKind kind,
      String name,
      String hash,
      BuildPodSettings settings,
      ClusterNetwork network) {
    return new NetworkPolicyBuilder()
        .withMetadata(BuildLabels.metadata(environment, kind, name, hash))
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels(BuildLabels.JOB, name)
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .withEgress(EgressRules.tcpTo(settings.egressCidrs(), settings.egressPorts(), network))
        .endSpec()
        .build();
  }
}
