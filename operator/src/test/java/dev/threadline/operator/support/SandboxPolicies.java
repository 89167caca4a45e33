package dev.threadline.operator.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.Map;

/** Assertions on a sandbox's NetworkPolicy. */
public final class SandboxPolicies {
  private SandboxPolicies() {}

  /** The policy admits connections on {@code port} only, only from those Pods of that namespace. */
  public static void admitsOnly(
      NetworkPolicy policy, int port, String namespace, Map.Entry<String, String> podLabel) {
    assertThat(policy.getSpec().getIngress())
        .singleElement()
        .satisfies(ingress -> {
          assertThat(ingress.getPorts())
              .singleElement()
              .satisfies(allowed -> assertThat(allowed.getPort().getIntVal()).isEqualTo(port));
          assertThat(ingress.getFrom())
              .singleElement()
              .satisfies(from -> {
                assertThat(from.getNamespaceSelector().getMatchLabels())
                    .containsExactly(Map.entry("kubernetes.io/metadata.name", namespace));
                assertThat(from.getPodSelector().getMatchLabels()).containsExactly(podLabel);
              });
        });
  }
}
