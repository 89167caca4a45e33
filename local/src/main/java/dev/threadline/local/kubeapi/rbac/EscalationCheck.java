package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * kube-apiserver's guard against privilege escalation through RBAC writes: a user may write a Role
 * or ClusterRole only with rules it holds itself (or the {@code escalate} verb on it), and a
 * binding only to a role whose rules it holds (or with the {@code bind} verb on that role, as the
 * chart grants the operator on {@code threadline-trigger}). Holding is checked rule by rule, broken
 * down to single verbs, groups, resources and names, as kube's {@code Covers} does.
 */
public final class EscalationCheck {
  /** The most single permissions one rule may name: more is refused, not broken down. */
  static final long MAX_PERMISSIONS_PER_RULE = 4096;

  private EscalationCheck() {}

  /**
   * The refusal of a write of {@code object} (a Role, ClusterRole, RoleBinding or
   * ClusterRoleBinding, by its plural {@code resource}), or empty when it may be written.
   */
  public static Optional<String> refusal(
      RbacPolicy policy, UserInfo user, String resource, String namespace, JsonNode object) {
    if (user.privileged()) {
      return Optional.empty();
    }
    String ns = namespace == null ? "" : namespace;
    String name = object.path("metadata").path("name").asText("");
    List<PolicyRule> granted;
    switch (resource) {
      case "roles", "clusterroles" -> {
        if (policy.allows(
            RequestAttributes.resource(
                user, "escalate", ns, PolicyCache.GROUP, resource, "", name))) {
          return Optional.empty();
        }
        granted = new ArrayList<>();
        object.path("rules").forEach(rule -> granted.add(PolicyRule.of(rule)));
      }
      case "rolebindings", "clusterrolebindings" -> {
        JsonNode roleRef = object.path("roleRef");
        String roleResource =
            roleRef.path("kind").asText().equals("ClusterRole") ? "clusterroles" : "roles";
        if (policy.allows(
            RequestAttributes.resource(
                user,
                "bind",
                ns,
                PolicyCache.GROUP,
                roleResource,
                "",
                roleRef.path("name").asText("")))) {
          return Optional.empty();
        }
        granted = policy.rulesOf(roleRef, ns);
      }
      default -> {
        return Optional.empty();
      }
    }
    List<String> missing = new ArrayList<>();
    for (PolicyRule rule : granted) {
      if (!held(policy, user, ns, rule)) {
        missing.add(describe(rule));
      }
    }
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    String qualified = resource + "." + PolicyCache.GROUP;
    return Optional.of(
        qualified
            + " \""
            + name
            + "\" is forbidden: user \""
            + user.name()
            + "\" (groups="
            + quoted(user.groups())
            + ") is attempting to grant RBAC permissions not currently held:\n"
            + String.join("\n", missing));
  }

  /** Whether every single permission the rule names is one the user holds in {@code namespace}. */
  private static boolean held(RbacPolicy policy, UserInfo user, String namespace, PolicyRule rule) {
    long permissions =
        (long) rule.verbs().size()
            * (rule.nonResourceURLs().size()
                + (long) rule.apiGroups().size()
                    * rule.resources().size()
                    * Math.max(1, rule.resourceNames().size()));
    if (permissions > MAX_PERMISSIONS_PER_RULE) {
      return false;
    }
    for (String verb : rule.verbs()) {
      for (String url : rule.nonResourceURLs()) {
        if (!policy.allows(RequestAttributes.nonResource(user, verb, url))) {
          return false;
        }
      }
      for (String group : rule.apiGroups()) {
        for (String resource : rule.resources()) {
          int slash = resource.indexOf('/');
          String base = slash < 0 ? resource : resource.substring(0, slash);
          String sub = slash < 0 ? "" : resource.substring(slash + 1);
          List<String> names = rule.resourceNames().isEmpty() ? List.of("") : rule.resourceNames();
          for (String name : names) {
            if (!policy.allows(
                RequestAttributes.resource(user, verb, namespace, group, base, sub, name))) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  private static String describe(PolicyRule rule) {
    StringBuilder text = new StringBuilder("{");
    if (!rule.apiGroups().isEmpty()) {
      text.append("APIGroups:").append(quoted(rule.apiGroups())).append(", ");
    }
    if (!rule.resources().isEmpty()) {
      text.append("Resources:").append(quoted(rule.resources())).append(", ");
    }
    if (!rule.resourceNames().isEmpty()) {
      text.append("ResourceNames:").append(quoted(rule.resourceNames())).append(", ");
    }
    if (!rule.nonResourceURLs().isEmpty()) {
      text.append("NonResourceURLs:").append(quoted(rule.nonResourceURLs())).append(", ");
    }
    return text.append("Verbs:").append(quoted(rule.verbs())).append("}").toString();
  }

  private static String quoted(List<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(" ", "[", "]"));
  }
}
