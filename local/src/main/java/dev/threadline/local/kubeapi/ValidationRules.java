package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CRD version's validation rules ({@code x-kubernetes-validations}, CEL), compiled once and
 * checked on every write as the API server checks them, so that a manifest a cluster would refuse
 * is refused locally too, with the rule's message. Transition rules ({@code oldSelf}) are not
 * supported: a CRD using one is refused when it is loaded.
 */
final class ValidationRules {
  static final ValidationRules NONE = new ValidationRules(null, new IdentityHashMap<>());

  private static final Cel CEL =
      CelFactory.standardCelBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addVar("self", SimpleType.DYN)
          .build();

  /**
   * A rule that does not hold: where ({@code path}, empty for the object's root), the JSON type of
   * the value there, and the rule's message.
   */
  record Violation(String path, String type, String message) {}

  private record Rule(String expression, String message, CelRuntime.Program program) {}

  private final JsonNode schema;

  /** The rules by the schema node that declares them (identity: checks walk this very schema). */
  private final Map<JsonNode, List<Rule>> rulesBySchema;

  private ValidationRules(JsonNode schema, Map<JsonNode, List<Rule>> rulesBySchema) {
    this.schema = schema;
    this.rulesBySchema = rulesBySchema;
  }

  /**
   * Compiles every rule of an openAPIV3Schema.
   *
   * @throws IllegalArgumentException naming the rule when one does not compile
   */
  static ValidationRules compile(JsonNode schema) {
    Map<JsonNode, List<Rule>> rules = new IdentityHashMap<>();
    collect(schema, rules);
    return rules.isEmpty() ? NONE : new ValidationRules(schema, rules);
  }

  /** The rules the object breaks, in schema order; empty when it keeps them all. */
  List<Violation> check(JsonNode object) {
    List<Violation> violations = new ArrayList<>();
    if (!rulesBySchema.isEmpty()) {
      walk(schema, object, "", violations);
    }
    return violations;
  }

  private static void collect(JsonNode schema, Map<JsonNode, List<Rule>> rules) {
    if (schema == null || !schema.isObject()) {
      return;
    }
    for (JsonNode declared : schema.path("x-kubernetes-validations")) {
      String expression = declared.path("rule").asText();
      String message = declared.path("message").asText("failed rule: " + expression);
      rules
          .computeIfAbsent(schema, s -> new ArrayList<>())
          .add(new Rule(expression, message, program(expression)));
    }
    schema.path("properties").forEach(property -> collect(property, rules));
    collect(schema.get("additionalProperties"), rules);
    collect(schema.get("items"), rules);
  }

  private static CelRuntime.Program program(String expression) {
    if (expression.contains("oldSelf")) {
      throw new IllegalArgumentException(
          "transition rules (oldSelf) are not supported: " + expression);
    }
    try {
      return CEL.createProgram(CEL.compile(expression).getAst());
    } catch (CelValidationException | CelEvaluationException e) {
      throw new IllegalArgumentException(
          "the validation rule " + expression + " does not compile: " + e.getMessage(), e);
    }
  }

  private void walk(JsonNode schema, JsonNode value, String path, List<Violation> violations) {
    if (schema == null || value == null || value.isNull()) {
      return;
    }
    for (Rule rule : rulesBySchema.getOrDefault(schema, List.of())) {
      if (!holds(rule, value)) {
        violations.add(new Violation(path, typeOf(value), rule.message()));
      }
    }
    if (value.isObject()) {
      JsonNode properties = schema.path("properties");
      JsonNode additional = schema.get("additionalProperties");
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        JsonNode fieldSchema =
            properties.has(field.getKey()) ? properties.get(field.getKey()) : additional;
        walk(
            fieldSchema,
            field.getValue(),
            path.isEmpty() ? field.getKey() : path + "." + field.getKey(),
            violations);
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        walk(schema.get("items"), value.get(i), path + "[" + i + "]", violations);
      }
    }
  }

  /** As on a cluster, a rule that cannot be evaluated (e.g. a missing field) does not hold. */
  private static boolean holds(Rule rule, JsonNode value) {
    try {
      return Boolean.TRUE.equals(rule.program().eval(Map.of("self", celValue(value))));
    } catch (CelEvaluationException e) {
      return false;
    }
  }

  private static String typeOf(JsonNode value) {
    return switch (value.getNodeType()) {
      case OBJECT -> "object";
      case ARRAY -> "array";
      case NUMBER -> value.isIntegralNumber() ? "integer" : "number";
      case BOOLEAN -> "boolean";
      default -> "string";
    };
  }

  /**
   * JSON as CEL sees it: maps, lists, int (long), double, string, bool; nulls are absent fields.
   */
  private static Object celValue(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.properties()
          .forEach(field -> {
            if (!field.getValue().isNull()) {
              map.put(field.getKey(), celValue(field.getValue()));
            }
          });
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(celValue(item)));
      return list;
    }
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.asText();
  }
}
