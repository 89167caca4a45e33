package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Roles, ClusterRoles and their bindings at one moment, evaluated as kube-apiserver's RBAC
 * authorizer does: a request is allowed when a ClusterRoleBinding, or a RoleBinding of the
 * request's namespace, binds a subject that is the user (User by name, Group by one of its groups,
 * ServiceAccount by {@code system:serviceaccount:<ns>:<name>}) to a role one of whose rules allows
 * it. A ClusterRole with an {@code aggregationRule} holds the rules of every ClusterRole its
 * selectors pick, as the aggregation controller would have written them. Nothing denies: a request
 * no rule allows is refused. Pure logic over the objects' JSON; immutable.
 */
public final class RbacPolicy {
  private final Map<String, JsonNode> clusterRoles = new HashMap<>();
  private final Map<String, Map<String, JsonNode>> roles = new HashMap<>();
  private final List<JsonNode> clusterRoleBindings;
  private final Map<String, List<JsonNode>> roleBindings = new HashMap<>();
  private final Map<String, List<PolicyRule>> clusterRoleRules = new HashMap<>();

  public RbacPolicy(
      Collection<JsonNode> roles,
      Collection<JsonNode> clusterRoles,
      Collection<JsonNode> roleBindings,
      Collection<JsonNode> clusterRoleBindings) {
    clusterRoles.forEach(role -> this.clusterRoles.put(name(role), role));
    roles.forEach(role ->
        this.roles.computeIfAbsent(namespace(role), ns -> new HashMap<>()).put(name(role), role));
    roleBindings.forEach(binding ->
        this.roleBindings
            .computeIfAbsent(namespace(binding), ns -> new ArrayList<>())
            .add(binding));
    this.clusterRoleBindings = List.copyOf(clusterRoleBindings);
    for (String role : this.clusterRoles.keySet()) {
      clusterRoleRules.put(role, List.copyOf(aggregatedRules(role, new HashSet<>())));
    }
  }

  public static RbacPolicy empty() {
    return new RbacPolicy(List.of(), List.of(), List.of(), List.of());
  }

  /** Why a request is allowed, as kube-apiserver words it, or empty when it is not. */
  public Optional<String> allowedBecause(RequestAttributes request) {
    if (request.user().privileged()) {
      return Optional.of("allowed: the user is in the group " + UserInfo.MASTERS);
    }
    for (JsonNode binding : clusterRoleBindings) {
      Optional<String> reason = allowedBy(binding, "", request);
      if (reason.isPresent()) {
        return reason;
      }
    }
    if (!request.namespace().isEmpty()) {
      for (JsonNode binding : roleBindings.getOrDefault(request.namespace(), List.of())) {
        Optional<String> reason = allowedBy(binding, request.namespace(), request);
        if (reason.isPresent()) {
          return reason;
        }
      }
    }
    return Optional.empty();
  }

  public boolean allows(RequestAttributes request) {
    return allowedBecause(request).isPresent();
  }

  /**
   * Every rule the user holds in {@code namespace} (cluster-wide ones included), as a
   * SelfSubjectRulesReview lists them; an empty namespace gives the cluster-wide rules only.
   */
  public List<PolicyRule> rulesFor(UserInfo user, String namespace) {
    if (user.privileged()) {
      return List.of(PolicyRule.everything(), PolicyRule.everyPath());
    }
    List<PolicyRule> rules = new ArrayList<>();
    for (JsonNode binding : clusterRoleBindings) {
      if (bindsUser(binding, "", user)) {
        rules.addAll(rulesOf(binding.path("roleRef"), ""));
      }
    }
    if (namespace != null && !namespace.isEmpty()) {
      for (JsonNode binding : roleBindings.getOrDefault(namespace, List.of())) {
        if (bindsUser(binding, namespace, user)) {
          rules.addAll(rulesOf(binding.path("roleRef"), namespace));
        }
      }
    }
    return rules;
  }

  /** The rules of a role a binding refers to; empty when it does not exist (yet). */
  List<PolicyRule> rulesOf(JsonNode roleRef, String bindingNamespace) {
    String kind = roleRef.path("kind").asText();
    String name = roleRef.path("name").asText();
    if (kind.equals("ClusterRole")) {
      return clusterRoleRules.getOrDefault(name, List.of());
    }
    if (kind.equals("Role") && !bindingNamespace.isEmpty()) {
      JsonNode role = roles.getOrDefault(bindingNamespace, Map.of()).get(name);
      return role == null ? List.of() : ownRules(role);
    }
    return List.of();
  }

  private Optional<String> allowedBy(
      JsonNode binding, String bindingNamespace, RequestAttributes request) {
    if (!bindsUser(binding, bindingNamespace, request.user())) {
      return Optional.empty();
    }
    JsonNode roleRef = binding.path("roleRef");
    for (PolicyRule rule : rulesOf(roleRef, bindingNamespace)) {
      if (rule.allows(request)) {
        return Optional.of(
            "RBAC: allowed by "
                + (bindingNamespace.isEmpty() ? "ClusterRoleBinding" : "RoleBinding")
                + " \""
                + name(binding)
                + (bindingNamespace.isEmpty() ? "" : "/" + bindingNamespace)
                + "\" of "
                + roleRef.path("kind").asText()
                + " \""
                + roleRef.path("name").asText()
                + "\" to "
                + subjectKindOf(binding, bindingNamespace, request.user())
                + " \""
                + request.user().name()
                + "\"");
      }
    }
    return Optional.empty();
  }

  private static boolean bindsUser(JsonNode binding, String bindingNamespace, UserInfo user) {
    for (JsonNode subject : binding.path("subjects")) {
      if (appliesTo(subject, bindingNamespace, user)) {
        return true;
      }
    }
    return false;
  }

  private static String subjectKindOf(JsonNode binding, String bindingNamespace, UserInfo user) {
    for (JsonNode subject : binding.path("subjects")) {
      if (appliesTo(subject, bindingNamespace, user)) {
        return subject.path("kind").asText();
      }
    }
    return "User";
  }

  /** kube's {@code appliesToUser}: a ServiceAccount without namespace is the binding's. */
  static boolean appliesTo(JsonNode subject, String bindingNamespace, UserInfo user) {
    String name = subject.path("name").asText();
    return switch (subject.path("kind").asText()) {
      case "User" -> user.name().equals(name);
      case "Group" -> user.groups().contains(name);
      case "ServiceAccount" -> {
        String namespace = subject.path("namespace").asText("");
        if (namespace.isEmpty()) {
          namespace = bindingNamespace;
        }
        yield !namespace.isEmpty()
            && user.name().equals(UserInfo.SERVICE_ACCOUNT_PREFIX + namespace + ":" + name);
      }
      default -> false;
    };
  }

  /**
   * A ClusterRole's own rules, and those of every ClusterRole its aggregationRule's selectors pick
   * (themselves aggregated, each role once).
   */
  private List<PolicyRule> aggregatedRules(String roleName, Set<String> visited) {
    JsonNode role = clusterRoles.get(roleName);
    if (role == null || !visited.add(roleName)) {
      return List.of();
    }
    JsonNode selectors = role.path("aggregationRule").path("clusterRoleSelectors");
    if (!selectors.isArray() || selectors.isEmpty()) {
      return ownRules(role);
    }
    // As the aggregation controller does, the aggregated role's rules are replaced by the union.
    List<PolicyRule> rules = new ArrayList<>();
    clusterRoles.keySet().stream()
        .sorted()
        .filter(other -> !other.equals(roleName))
        .filter(other -> anySelects(selectors, clusterRoles.get(other).path("metadata")))
        .forEach(other -> rules.addAll(aggregatedRules(other, visited)));
    return rules;
  }

  private static boolean anySelects(JsonNode selectors, JsonNode metadata) {
    for (JsonNode selector : selectors) {
      if (LabelSelectors.matches(selector, metadata.path("labels"))) {
        return true;
      }
    }
    return false;
  }

  private static List<PolicyRule> ownRules(JsonNode role) {
    List<PolicyRule> rules = new ArrayList<>();
    role.path("rules").forEach(rule -> rules.add(PolicyRule.of(rule)));
    return rules;
  }

  private static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  private static String namespace(JsonNode object) {
    return object.path("metadata").path("namespace").asText("");
  }
}
