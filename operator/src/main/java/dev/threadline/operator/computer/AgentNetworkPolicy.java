package dev.threadline.operator.computer;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Every run's Pod gets one, and accepts no connections. With internet access it may reach DNS and
 * every address outside the cluster's ranges and link-local ({@link EgressRules#internet}); without
 * it, DNS and the model endpoint, nothing else. NetworkPolicies cannot name hosts, so the model
 * endpoint is an {@code ipBlock} only when {@code THREADLINE_MODEL_BASE_URL} names an IP address;
 * for a host name (or a provider's public endpoint) the policy allows the endpoint's port (443 by
 * default) to any address — a known limitation, narrowed best with an egress gateway. The offline
 * scripted model needs no endpoint at all, so its runs get DNS only.
 */
public final class AgentNetworkPolicy {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private AgentNetworkPolicy() {}

  public static NetworkPolicy of(
      Run run,
      AgentProfile agent,
      ModelSettings configured,
      boolean internetAccess,
      ClusterNetwork network) {
    List<NetworkPolicyEgressRule> egress =
        new ArrayList<>(
            internetAccess ? EgressRules.internet(network) : List.of(EgressRules.dns()));
    if (!ModelSettings.SCRIPTED.equals(agent.provider())) {
      NetworkPolicyEgressRule model =
          modelEndpoint(
              agent.provider().equals(configured.provider()) ? configured.baseUrl() : null);
      // With internet access a public endpoint is reachable already; an address inside the
      // cluster's ranges (a model server in the cluster) needs its own rule.
      if (!internetAccess || !model.getTo().isEmpty()) {
        egress.add(model);
      }
    }
    return new NetworkPolicyBuilder()
        .withNewMetadata()
        .withName(AgentObjects.networkPolicyName(run))
        .withNamespace(run.getMetadata().getNamespace())
        .withLabels(AgentObjects.labels(run))
        .withOwnerReferences(AgentObjects.ownedBy(run))
        .endMetadata()
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels(Labels.RUN, AgentObjects.labels(run).get(Labels.RUN))
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .withEgress(egress)
        .endSpec()
        .build();
  }

  static NetworkPolicyEgressRule modelEndpoint(String baseUrl) {
    URI uri = baseUrl == null ? null : URI.create(baseUrl);
    int port =
        uri == null
            ? 443
            : uri.getPort() > 0 ? uri.getPort() : "http".equals(uri.getScheme()) ? 80 : 443;
    NetworkPolicyEgressRuleBuilder rule =
        new NetworkPolicyEgressRuleBuilder()
            .addNewPort()
            .withProtocol("TCP")
            .withPort(new IntOrString(port))
            .endPort();
    String host =
        uri == null || uri.getHost() == null ? null : uri.getHost().replaceAll("^\\[|]$", "");
    if (host != null && (IPV4.matcher(host).matches() || host.contains(":"))) {
      rule.addNewTo().withNewIpBlock().withCidr(cidr(host)).endIpBlock().endTo();
    }
    return rule.build();
  }

  private static String cidr(String address) {
    try {
      // A literal address: no lookup happens.
      return InetAddress.getByName(address).getHostAddress()
          + (address.contains(":") ? "/128" : "/32");
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("not an IP address: " + address, e);
    }
  }
}
