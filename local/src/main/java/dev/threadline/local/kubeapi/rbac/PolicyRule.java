package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a Role or ClusterRole, matched as kube-apiserver's RBAC authorizer matches it ({@code
 * rbac.RuleAllows}): {@code *} matches any verb, group, resource or URL; {@code *} followed by
 * {@code /sub} the subresource {@code sub} of any resource; {@code resourceNames} narrow to those
 * names; a {@code nonResourceURLs} entry ending in {@code *} matches by prefix.
 */
public record PolicyRule(
    List<String> verbs,
    List<String> apiGroups,
    List<String> resources,
    List<String> resourceNames,
    List<String> nonResourceURLs) {
  static final String ALL = "*";

  public PolicyRule {
    verbs = List.copyOf(verbs);
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
    nonResourceURLs = List.copyOf(nonResourceURLs);
  }

  /** A rule as a Role's {@code rules[]} entry holds it; absent lists are empty. */
  public static PolicyRule of(JsonNode rule) {
    return new PolicyRule(
        texts(rule.path("verbs")),
        texts(rule.path("apiGroups")),
        texts(rule.path("resources")),
        texts(rule.path("resourceNames")),
        texts(rule.path("nonResourceURLs")));
  }

  /** Every verb on every resource and every path: what the privileged group holds. */
  static PolicyRule everything() {
    return new PolicyRule(List.of(ALL), List.of(ALL), List.of(ALL), List.of(), List.of());
  }

  static PolicyRule everyPath() {
    return new PolicyRule(List.of(ALL), List.of(), List.of(), List.of(), List.of(ALL));
  }

  public boolean allows(RequestAttributes request) {
    if (!matches(verbs, request.verb())) {
      return false;
    }
    if (!request.resourceRequest()) {
      return nonResourceUrlMatches(request.path());
    }
    return matches(apiGroups, request.apiGroup())
        && resourceMatches(request)
        && (resourceNames.isEmpty() || resourceNames.contains(request.name()));
  }

  private boolean resourceMatches(RequestAttributes request) {
    String combined = request.combinedResource();
    String subresource = request.subresource();
    for (String resource : resources) {
      if (resource.equals(ALL) || resource.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty()
          && resource.length() == subresource.length() + 2
          && resource.startsWith("*/")
          && resource.endsWith(subresource)) {
        return true;
      }
    }
    return false;
  }

  private boolean nonResourceUrlMatches(String path) {
    for (String url : nonResourceURLs) {
      if (url.equals(ALL) || url.equals(path)) {
        return true;
      }
      if (url.endsWith(ALL) && path.startsWith(url.substring(0, url.length() - 1))) {
        return true;
      }
    }
    return false;
  }

  boolean isResourceRule() {
    return !resources.isEmpty();
  }

  boolean isNonResourceRule() {
    return !nonResourceURLs.isEmpty();
  }

  /** The rule as a SelfSubjectRulesReview lists it (resource or non-resource part). */
  ObjectNode toResourceJson() {
    ObjectNode node = Json.object();
    verbs.forEach(node.putArray("verbs")::add);
    apiGroups.forEach(node.putArray("apiGroups")::add);
    resources.forEach(node.putArray("resources")::add);
    if (!resourceNames.isEmpty()) {
      resourceNames.forEach(node.putArray("resourceNames")::add);
    }
    return node;
  }

  ObjectNode toNonResourceJson() {
    ObjectNode node = Json.object();
    verbs.forEach(node.putArray("verbs")::add);
    nonResourceURLs.forEach(node.putArray("nonResourceURLs")::add);
    return node;
  }

  private static boolean matches(List<String> allowed, String value) {
    return allowed.contains(ALL) || allowed.contains(value);
  }

  private static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }
}
