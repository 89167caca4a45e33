package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A field selector ({@code metadata.name=a,status.phase!=Failed}). {@code metadata.name} and {@code
 * metadata.namespace} equalities are answered by the store's key index; any other field is compared
 * on the object.
 */
public final class FieldSelector {
  /** One {@code path=value} or {@code path!=value} term. */
  record Term(String path, String value, boolean equal) {
    boolean matches(JsonNode object) {
      JsonNode current = object;
      for (String field : path.split("\\.")) {
        current = current.path(field);
      }
      String actual = current.isValueNode() ? current.asText() : "";
      return actual.equals(value) == equal;
    }
  }

  /**
   * The name and namespace: every resource can be selected by them (other fields only where the
   * resource declares them), and an object keeps them for life.
   */
  public static final Set<String> ALWAYS_SELECTABLE = Set.of("metadata.name", "metadata.namespace");

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /** Only the object with this name. */
  public static FieldSelector name(String name) {
    return new FieldSelector(List.of(new Term("metadata.name", name, true)));
  }

  /**
   * Parses a selector; null or blank selects everything.
   *
   * @throws IllegalArgumentException naming the term that is not {@code field=value}
   */
  public static FieldSelector parse(String text) {
    if (text == null || text.isBlank()) {
      return EVERYTHING;
    }
    List<Term> terms = new ArrayList<>();
    for (String raw : text.split(",")) {
      String term = raw.trim();
      int notEqual = term.indexOf("!=");
      int equal = term.indexOf('=');
      if (notEqual > 0) {
        terms.add(
            new Term(term.substring(0, notEqual).trim(), term.substring(notEqual + 2), false));
      } else if (equal > 0) {
        int valueStart = term.startsWith("==", equal) ? equal + 2 : equal + 1;
        terms.add(new Term(term.substring(0, equal).trim(), term.substring(valueStart), true));
      } else {
        throw new IllegalArgumentException("invalid field selector: \"" + term + "\"");
      }
    }
    return new FieldSelector(terms);
  }

  /** The fields this selector compares, in its order ({@code status.phase}). */
  public List<String> paths() {
    return terms.stream().map(Term::path).toList();
  }

  /**
   * Whether a term compares a field a write can change: anything but the name and namespace, which
   * an object keeps for life.
   */
  boolean selectsByContent() {
    return terms.stream().anyMatch(term -> !ALWAYS_SELECTABLE.contains(term.path()));
  }

  /** The name this selector requires, or null. */
  String requiredName() {
    return required("metadata.name");
  }

  /** The namespace this selector requires, or null. */
  String requiredNamespace() {
    return required("metadata.namespace");
  }

  private String required(String path) {
    for (Term term : terms) {
      if (term.equal() && term.path().equals(path)) {
        return term.value();
      }
    }
    return null;
  }

  public boolean matches(JsonNode object) {
    for (Term term : terms) {
      if (!term.matches(object)) {
        return false;
      }
    }
    return true;
  }
}
