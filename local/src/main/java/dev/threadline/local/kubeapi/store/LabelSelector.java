package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector ({@code a=b,c!=d,e in (f,g),h notin (i),j,!k}): matched against an
 * object in memory (watch events) or turned into SQL over the labels index (lists).
 */
public final class LabelSelector {
  /** One requirement of a selector. */
  record Requirement(String key, Operator operator, Set<String> values) {}

  enum Operator {
    IN,
    NOT_IN,
    EXISTS,
    NOT_EXISTS
  }

  private static final Pattern SET_BASED =
      Pattern.compile("^([^\\s!=()]+)\\s+(in|notin)\\s*\\(([^)]*)\\)$");
  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /**
   * Parses a selector; null or blank selects everything.
   *
   * @throws IllegalArgumentException naming the part that is not a requirement
   */
  public static LabelSelector parse(String text) {
    if (text == null || text.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (String term : splitTerms(text)) {
      requirements.add(requirement(term.trim()));
    }
    return new LabelSelector(requirements);
  }

  private static Requirement requirement(String term) {
    Matcher set = SET_BASED.matcher(term);
    if (set.matches()) {
      Set<String> values = new java.util.LinkedHashSet<>();
      for (String value : set.group(3).split(",")) {
        if (!value.isBlank()) {
          values.add(value.trim());
        }
      }
      return new Requirement(
          set.group(1), set.group(2).equals("in") ? Operator.IN : Operator.NOT_IN, values);
    }
    int notEqual = term.indexOf("!=");
    if (notEqual > 0) {
      return new Requirement(
          checkedKey(term.substring(0, notEqual), term),
          Operator.NOT_IN,
          Set.of(term.substring(notEqual + 2).trim()));
    }
    int equal = term.indexOf('=');
    if (equal > 0) {
      String value = term.substring(term.startsWith("==", equal) ? equal + 2 : equal + 1).trim();
      return new Requirement(
          checkedKey(term.substring(0, equal), term), Operator.IN, Set.of(value));
    }
    if (term.startsWith("!")) {
      return new Requirement(checkedKey(term.substring(1), term), Operator.NOT_EXISTS, Set.of());
    }
    return new Requirement(checkedKey(term, term), Operator.EXISTS, Set.of());
  }

  private static String checkedKey(String key, String term) {
    String trimmed = key.trim();
    if (trimmed.isEmpty() || !trimmed.matches("[A-Za-z0-9._/-]+")) {
      throw new IllegalArgumentException("unable to parse requirement: \"" + term + "\"");
    }
    return trimmed;
  }

  /** Splits on commas outside parentheses. */
  private static List<String> splitTerms(String text) {
    List<String> terms = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        terms.add(text.substring(start, i));
        start = i + 1;
      }
    }
    terms.add(text.substring(start));
    return terms;
  }

  List<Requirement> requirements() {
    return requirements;
  }

  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /** Whether an object's {@code metadata.labels} satisfy every requirement. */
  public boolean matches(JsonNode object) {
    JsonNode labels = object.path("metadata").path("labels");
    for (Requirement requirement : requirements) {
      JsonNode value = labels.get(requirement.key());
      boolean present = value != null && !value.isNull();
      boolean ok =
          switch (requirement.operator()) {
            case IN -> present && requirement.values().contains(value.asText());
            case NOT_IN -> !present || !requirement.values().contains(value.asText());
            case EXISTS -> present;
            case NOT_EXISTS -> !present;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
