package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import org.junit.jupiter.api.Test;

class AgentObjectsTest {

  @Test
  void theWorkspaceIsNamedAfterTheThreadsSuffix() {
    assertThat(AgentObjects.workspaceClaimName("thread-7f3k")).isEqualTo("workspace-7f3k");
  }

  @Test
  void longNamesBecomeStableValidLabelValues() {
    String name = "thread-" + "a".repeat(80) + "-1";
    String value = AgentObjects.labelValue(name);
    assertThat(value).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
    assertThat(AgentObjects.labelValue(name)).isEqualTo(value);
    assertThat(AgentObjects.labelValue("thread-" + "a".repeat(80) + "-2")).isNotEqualTo(value);
    assertThat(AgentObjects.labelValue("thread-x-1")).isEqualTo("thread-x-1");
  }

  @Test
  void aModelEndpointGivenByIpIsTheOnlyAddressAllowed() {
    NetworkPolicyEgressRule byIp = AgentNetworkPolicy.modelEndpoint("http://10.1.2.3:11434/v1");
    assertThat(byIp.getTo())
        .singleElement()
        .satisfies(peer -> assertThat(peer.getIpBlock().getCidr()).isEqualTo("10.1.2.3/32"));
    assertThat(byIp.getPorts())
        .singleElement()
        .satisfies(port -> assertThat(port.getPort().getIntVal()).isEqualTo(11434));

    // A host name cannot be expressed in a NetworkPolicy: its port, to any address.
    NetworkPolicyEgressRule byName = AgentNetworkPolicy.modelEndpoint("https://api.openai.com/v1");
    assertThat(byName.getTo()).isEmpty();
    assertThat(byName.getPorts())
        .singleElement()
        .satisfies(port -> assertThat(port.getPort().getIntVal()).isEqualTo(443));
  }
}
