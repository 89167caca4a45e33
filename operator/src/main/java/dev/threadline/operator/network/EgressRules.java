package dev.threadline.operator.network;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Egress rules of the NetworkPolicies around untrusted Pods. Rules of a policy add up (any rule
 * that matches allows), so "the internet" is written as one rule to {@code 0.0.0.0/0} and {@code
 * ::/0} with the cluster's ranges cut out ({@code except}), never as an allow plus a deny.
 */
public final class EgressRules {
  private static final String ANY_IPV4 = "0.0.0.0/0";
  private static final String ANY_IPV6 = "::/0";

  private EgressRules() {}

  /**
   * Name lookups, to any DNS server on port 53 (cluster DNS lives in another namespace, inside the
   * denied ranges).
   */
  public static NetworkPolicyEgressRule dns() {
    return new NetworkPolicyEgressRuleBuilder()
        .addNewPort()
        .withProtocol("UDP")
        .withPort(new IntOrString(53))
        .endPort()
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(53))
        .endPort()
        .build();
  }

  /**
   * DNS, and every address but the cluster's and link-local ones, on any port: what a Pod with
   * internet access may reach.
   */
  public static List<NetworkPolicyEgressRule> internet(ClusterNetwork network) {
    return List.of(
        dns(), new NetworkPolicyEgressRuleBuilder().withTo(internetPeers(network)).build());
  }

  /**
   * DNS, and TCP on {@code ports} to {@code cidrs} — or, when no CIDRs are given, to the internet
   * as {@link #internet} means it.
   */
  public static List<NetworkPolicyEgressRule> tcpTo(
      List<String> cidrs, List<Integer> ports, ClusterNetwork network) {
    NetworkPolicyEgressRuleBuilder rule =
        new NetworkPolicyEgressRuleBuilder()
            .withTo(
                cidrs.isEmpty()
                    ? internetPeers(network)
                    : cidrs.stream().map(cidr -> peer(cidr, List.of())).toList());
    for (int port : ports) {
      rule.addNewPort().withProtocol("TCP").withPort(new IntOrString(port)).endPort();
    }
    return List.of(dns(), rule.build());
  }

  private static List<NetworkPolicyPeer> internetPeers(ClusterNetwork network) {
    List<String> ipv4 = new ArrayList<>();
    List<String> ipv6 = new ArrayList<>();
    for (String cidr : network.denied()) {
      (Cidrs.isIpv6(cidr) ? ipv6 : ipv4).add(cidr);
    }
    return List.of(peer(ANY_IPV4, ipv4), peer(ANY_IPV6, ipv6));
  }

  private static NetworkPolicyPeer peer(String cidr, List<String> except) {
    return new NetworkPolicyPeerBuilder()
        .withNewIpBlock()
        .withCidr(cidr)
        .withExcept(except)
        .endIpBlock()
        .build();
  }
}
