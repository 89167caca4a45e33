package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentNetworkPolicyTest {
  private static final ClusterNetwork NETWORK =
      new ClusterNetwork(List.of("10.0.0.0/8"), List.of(), List.of("192.0.2.10/32"));
  private static final AgentProfile OPENAI = new AgentProfile("openai", "m", null);

  @Test
  void withInternetAccessAPublicModelEndpointNeedsNoRuleOfItsOwn() {
    NetworkPolicy policy =
        AgentNetworkPolicy.of(run(), OPENAI, model("https://api.openai.com/v1"), true, NETWORK);

    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getIngress()).isEmpty();
    assertThat(policy.getSpec().getEgress()).isEqualTo(EgressRules.internet(NETWORK));
  }

  @Test
  void withInternetAccessAModelServerInsideTheClusterStaysReachable() {
    NetworkPolicy policy =
        AgentNetworkPolicy.of(run(), OPENAI, model("http://10.1.2.3:11434/v1"), true, NETWORK);

    List<NetworkPolicyEgressRule> expected = new ArrayList<>(EgressRules.internet(NETWORK));
    expected.add(AgentNetworkPolicy.modelEndpoint("http://10.1.2.3:11434/v1"));
    assertThat(policy.getSpec().getEgress()).isEqualTo(expected);
  }

  @Test
  void withoutInternetAccessOnlyDnsAndTheModelEndpoint() {
    NetworkPolicy policy =
        AgentNetworkPolicy.of(run(), OPENAI, model("https://api.openai.com/v1"), false, NETWORK);

    assertThat(policy.getSpec().getEgress())
        .containsExactly(
            EgressRules.dns(), AgentNetworkPolicy.modelEndpoint("https://api.openai.com/v1"));
  }

  private static ModelSettings model(String baseUrl) {
    return new ModelSettings("openai", "m", baseUrl, null, null);
  }

  private static Run run() {
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withName("run-a-1").withNamespace("alice").build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-a");
    run.setSpec(spec);
    return run;
  }
}
