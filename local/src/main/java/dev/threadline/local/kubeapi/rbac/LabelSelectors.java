package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@code metav1.LabelSelector} ({@code matchLabels} and {@code matchExpressions}) matched against
 * labels, as an aggregationRule's selectors are. An empty selector selects everything; an unknown
 * operator selects nothing.
 */
final class LabelSelectors {
  private LabelSelectors() {}

  static boolean matches(JsonNode selector, JsonNode labels) {
    for (Map.Entry<String, JsonNode> required : selector.path("matchLabels").properties()) {
      if (!required.getValue().asText().equals(labels.path(required.getKey()).asText(null))) {
        return false;
      }
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      if (!matchesExpression(expression, labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean matchesExpression(JsonNode expression, JsonNode labels) {
    String key = expression.path("key").asText();
    Set<String> values = new HashSet<>();
    expression.path("values").forEach(value -> values.add(value.asText()));
    boolean present = labels.has(key);
    String value = labels.path(key).asText(null);
    return switch (expression.path("operator").asText()) {
      case "In" -> present && values.contains(value);
      case "NotIn" -> !present || !values.contains(value);
      case "Exists" -> present;
      case "DoesNotExist" -> !present;
      default -> false;
    };
  }
}
