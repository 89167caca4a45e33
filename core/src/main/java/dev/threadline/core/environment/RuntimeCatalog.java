package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runtimes an environment may ask for: exactly the contract's table, in the contract's order
 * (which is also the order of {@code GET /environments/runtimes/available} and of the runtime
 * sections in the rendered Dockerfile).
 */
public final class RuntimeCatalog {

  private static final Map<String, List<String>> AVAILABLE = buildTable();

  private RuntimeCatalog() {}

  private static Map<String, List<String>> buildTable() {
    var table = new LinkedHashMap<String, List<String>>();
    table.put("python", List.of("3.9", "3.10", "3.11", "3.12", "3.13"));
    table.put("nodejs", List.of("18", "20", "22"));
    table.put("go", List.of("1.20", "1.21", "1.22", "1.23"));
    table.put("php", List.of("8.1", "8.2", "8.3"));
    table.put("java", List.of("11", "17", "21"));
    table.put("ruby", List.of("3.1", "3.2", "3.3"));
    table.put("rust", List.of("stable", "1.75", "1.76", "1.77"));
    return Collections.unmodifiableMap(table);
  }

  /** Language to allowed versions, insertion-ordered as in the contract. */
  public static Map<String, List<String>> available() {
    return AVAILABLE;
  }

  /** Languages in catalog order. */
  public static List<String> languages() {
    return List.copyOf(AVAILABLE.keySet());
  }

  public static boolean isSupported(String language, String version) {
    var versions = AVAILABLE.get(language);
    return versions != null && versions.contains(version);
  }

  /**
   * Checks a requested runtimes object. Returns one error per bad entry (field {@code
   * runtimes.<language>}), sorted by language so that the answer does not depend on map order; an
   * empty list means every entry is allowed. A null map is an empty request.
   */
  public static List<FieldError> validate(Map<String, String> runtimes) {
    if (runtimes == null) {
      return List.of();
    }
    var errors = new ArrayList<FieldError>();
    var sorted = new TreeMap<String, String>();
    // A JSON object cannot have a null key, but a Java caller's map might (and some maps throw on
    // containsKey(null), so look while copying).
    runtimes.forEach((language, version) -> {
      if (language == null) {
        errors.add(new FieldError("runtimes", "Runtime names must not be null"));
      } else {
        sorted.put(language, version);
      }
    });
    sorted.forEach((language, version) -> checkEntry(language, version).ifPresent(errors::add));
    return errors;
  }

  private static Optional<FieldError> checkEntry(String language, String version) {
    var field = "runtimes." + language;
    var versions = AVAILABLE.get(language);
    if (versions == null) {
      return Optional.of(
          new FieldError(
              field,
              "Unknown runtime \"%s\"; available: %s"
                  .formatted(language, String.join(", ", AVAILABLE.keySet()))));
    }
    if (version == null || !versions.contains(version)) {
      var shown = version == null ? "null" : "\"" + version + "\"";
      return Optional.of(
          new FieldError(
              field,
              "Unsupported %s version %s; available: %s"
                  .formatted(language, shown, String.join(", ", versions))));
    }
    return Optional.empty();
  }
}
