package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSONPath subset that printer columns use: field steps ({@code .spec.x}), list indexes ({@code
 * .items[0]}) and one equality filter ({@code .status.conditions[?(@.type=="Ready")].status}),
 * optionally wrapped in braces. Like the API server's column printer, only the first match counts.
 */
final class SimpleJsonPath {
  private static final Pattern FILTER =
      Pattern.compile(
          "\\?\\(@\\.([A-Za-z0-9_.\\-]+)\\s*==\\s*(?:\"([^\"]*)\"|'([^']*)'|([^)\\s]+))\\)");

  private final String expression;
  private final List<Step> steps;

  private SimpleJsonPath(String expression, List<Step> steps) {
    this.expression = expression;
    this.steps = steps;
  }

  static SimpleJsonPath compile(String expression) {
    String path = expression.trim();
    if (path.startsWith("{") && path.endsWith("}")) {
      path = path.substring(1, path.length() - 1).trim();
    }
    if (path.startsWith("$")) {
      path = path.substring(1);
    }
    List<Step> steps = new ArrayList<>();
    int i = 0;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        if (end > i + 1) {
          steps.add(new Field(path.substring(i + 1, end)));
        }
        i = end;
      } else if (c == '[') {
        int end = closingBracket(path, i);
        steps.add(bracket(path.substring(i + 1, end).trim(), expression));
        i = end + 1;
      } else {
        throw new IllegalArgumentException("unsupported JSONPath: " + expression);
      }
    }
    return new SimpleJsonPath(expression, List.copyOf(steps));
  }

  /** The first value the path finds, if any. */
  Optional<JsonNode> first(JsonNode document) {
    List<JsonNode> current = List.of(document);
    for (Step step : steps) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : current) {
        step.apply(node, next);
      }
      if (next.isEmpty()) {
        return Optional.empty();
      }
      current = next;
    }
    JsonNode result = current.get(0);
    return result == null || result.isMissingNode() || result.isNull()
        ? Optional.empty()
        : Optional.of(result);
  }

  @Override
  public String toString() {
    return expression;
  }

  private static int closingBracket(String path, int open) {
    boolean quoted = false;
    for (int i = open + 1; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '"' || c == '\'') {
        quoted = !quoted;
      } else if (c == ']' && !quoted) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced [ in JSONPath: " + path);
  }

  private static Step bracket(String inside, String expression) {
    if (inside.equals("*")) {
      return (node, out) -> node.forEach(out::add);
    }
    if (inside.matches("-?\\d+")) {
      int index = Integer.parseInt(inside);
      return (node, out) -> {
        if (node.isArray()) {
          int i = index < 0 ? node.size() + index : index;
          if (i >= 0 && i < node.size()) {
            out.add(node.get(i));
          }
        }
      };
    }
    if ((inside.startsWith("'") && inside.endsWith("'"))
        || (inside.startsWith("\"") && inside.endsWith("\""))) {
      return new Field(inside.substring(1, inside.length() - 1));
    }
    Matcher filter = FILTER.matcher(inside);
    if (filter.matches()) {
      String[] key = filter.group(1).split("\\.");
      String value =
          filter.group(2) != null
              ? filter.group(2)
              : filter.group(3) != null ? filter.group(3) : filter.group(4);
      return (node, out) -> {
        if (node.isArray()) {
          for (JsonNode element : node) {
            JsonNode field = element;
            for (String k : key) {
              field = field.path(k);
            }
            if (!field.isMissingNode() && !field.isNull() && field.asText().equals(value)) {
              out.add(element);
            }
          }
        }
      };
    }
    throw new IllegalArgumentException("unsupported JSONPath: " + expression);
  }

  private interface Step {
    void apply(JsonNode node, List<JsonNode> out);
  }

  private record Field(String name) implements Step {
    @Override
    public void apply(JsonNode node, List<JsonNode> out) {
      if (node.isObject() && node.has(name)) {
        out.add(node.get(name));
      } else if (node.isArray()) {
        // kubectl's JSONPath steps into every element of a list for a field step.
        for (JsonNode element : node) {
          if (element.isObject() && element.has(name)) {
            out.add(element.get(name));
          }
        }
      }
    }
  }
}
