package dev.threadline.local.kubelet.sandbox;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;

/**
 * Whether the NetworkPolicies of a Pod's namespace let it reach out. Local mode cannot filter by
 * address or port, so it decides all or nothing: a Pod that some policy selects for egress, and
 * whose policies allow nothing but DNS, gets no network at all; any other Pod keeps the host's.
 */
public final class EgressPolicy {
  private static final int DNS = 53;

  private EgressPolicy() {}

  /** Whether the Pod with {@code labels} may open connections, by {@code policies}. */
  public static boolean allowsEgress(Map<String, String> labels, List<NetworkPolicy> policies) {
    List<NetworkPolicy> selecting =
        policies.stream()
            .filter(policy -> policy.getSpec() != null)
            .filter(policy -> governsEgress(policy))
            .filter(policy -> selects(policy.getSpec().getPodSelector(), labels))
            .toList();
    if (selecting.isEmpty()) {
      return true;
    }
    return selecting.stream()
        .flatMap(policy -> list(policy.getSpec().getEgress()).stream())
        .anyMatch(EgressPolicy::beyondDns);
  }

  private static boolean governsEgress(NetworkPolicy policy) {
    List<String> types = list(policy.getSpec().getPolicyTypes());
    return types.contains("Egress") || !list(policy.getSpec().getEgress()).isEmpty();
  }

  /** A rule without ports allows every port; a port other than 53 is more than name lookups. */
  private static boolean beyondDns(NetworkPolicyEgressRule rule) {
    List<NetworkPolicyPort> ports = list(rule.getPorts());
    return ports.isEmpty()
        || ports.stream()
            .anyMatch(port ->
                port.getPort() == null
                    || port.getPort().getIntVal() == null
                    || port.getPort().getIntVal() != DNS
                    || port.getEndPort() != null);
  }

  static boolean selects(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    Map<String, String> own = labels == null ? Map.of() : labels;
    boolean labelsMatch =
        selector.getMatchLabels() == null
            || selector.getMatchLabels().entrySet().stream()
                .allMatch(entry -> entry.getValue().equals(own.get(entry.getKey())));
    return labelsMatch
        && list(selector.getMatchExpressions()).stream().allMatch(r -> matches(r, own));
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = list(requirement.getValues());
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }
}
