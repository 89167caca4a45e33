package dev.threadline.operator.network;

import dev.threadline.operator.config.SettingValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The address ranges that untrusted Pods (agent runs, containers, image builds) must not reach even
 * when they may use the internet: link-local (the cloud metadata endpoints), the cluster's Pod and
 * Service networks, and the Kubernetes API server. NetworkPolicies cannot learn these ranges from
 * the cluster, so they are configuration (the chart's {@code clusterNetwork} values).
 *
 * @param podCidrs {@code THREADLINE_CLUSTER_POD_CIDRS}, comma-separated
 * @param serviceCidrs {@code THREADLINE_CLUSTER_SERVICE_CIDRS}, comma-separated
 * @param apiServerCidrs {@code THREADLINE_CLUSTER_API_SERVER_CIDRS}, comma-separated: the API
 *     server's endpoint addresses (its Service address is inside the Service network)
 */
public record ClusterNetwork(
    List<String> podCidrs, List<String> serviceCidrs, List<String> apiServerCidrs) {
  /** IPv4 link-local and the IPv6 address of the EC2 metadata endpoint: always denied. */
  public static final List<String> LINK_LOCAL = List.of("169.254.0.0/16", "fd00:ec2::254/128");

  public ClusterNetwork {
    podCidrs = Cidrs.requireAll(podCidrs, "THREADLINE_CLUSTER_POD_CIDRS");
    serviceCidrs = Cidrs.requireAll(serviceCidrs, "THREADLINE_CLUSTER_SERVICE_CIDRS");
    apiServerCidrs = Cidrs.requireAll(apiServerCidrs, "THREADLINE_CLUSTER_API_SERVER_CIDRS");
  }

  public static ClusterNetwork none() {
    return new ClusterNetwork(List.of(), List.of(), List.of());
  }

  public static ClusterNetwork fromEnvironment(Map<String, String> env) {
    return new ClusterNetwork(
        SettingValues.list(env, "THREADLINE_CLUSTER_POD_CIDRS", List.of()),
        SettingValues.list(env, "THREADLINE_CLUSTER_SERVICE_CIDRS", List.of()),
        SettingValues.list(env, "THREADLINE_CLUSTER_API_SERVER_CIDRS", List.of()));
  }

  /** Every range an internet-facing rule must leave out, link-local first. */
  public List<String> denied() {
    List<String> denied = new ArrayList<>(LINK_LOCAL);
    denied.addAll(podCidrs);
    denied.addAll(serviceCidrs);
    denied.addAll(apiServerCidrs);
    return denied.stream().distinct().toList();
  }
}
