package dev.threadline.operator.network;

import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;

/**
 * Keeps a long-lived Pod's NetworkPolicy as the operator's configuration says now: a container's
 * policy made by an older operator (or before the chart's cluster ranges changed) gets the current
 * rules instead of keeping the old ones for the container's whole life.
 */
public final class NetworkPolicies {
  private NetworkPolicies() {}

  /** Creates the policy, or brings an existing one's spec to the desired one. */
  public static NetworkPolicy ensure(KubernetesClient client, NetworkPolicy desired) {
    NetworkPolicy current = IdempotentCreate.createOrGet(client, desired);
    if (Objects.equals(current.getSpec(), desired.getSpec())) {
      return current;
    }
    return client
        .network()
        .v1()
        .networkPolicies()
        .inNamespace(desired.getMetadata().getNamespace())
        .withName(desired.getMetadata().getName())
        .edit(policy -> {
          policy.setSpec(desired.getSpec());
          return policy;
        });
  }
}
