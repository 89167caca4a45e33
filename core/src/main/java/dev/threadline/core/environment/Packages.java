package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Package names by kind, in the order the user declared them (the order is kept in the rendered
 * Dockerfile, so it is part of the build hash).
 *
 * <p>Null lists become empty; null elements are kept for {@link ImageSpecValidator} to report.
 */
public record Packages(List<String> system, List<String> python, List<String> node) {

  public Packages {
    system = immutableCopy(system);
    python = immutableCopy(python);
    node = immutableCopy(node);
  }

  public static Packages empty() {
    return new Packages(List.of(), List.of(), List.of());
  }

  /** The names of one kind. */
  public List<String> of(PackageType type) {
    return switch (type) {
      case SYSTEM -> system;
      case PYTHON -> python;
      case NODE -> node;
    };
  }

  /**
   * These packages with {@code names} appended to one kind, skipping names already present (exact
   * match), so that installing twice does not grow the list or change the build hash.
   */
  public Packages withAdded(PackageType type, List<String> names) {
    var merged = new LinkedHashSet<>(of(type));
    merged.addAll(names);
    return with(type, new ArrayList<>(merged));
  }

  /**
   * These packages without {@code name} in one kind. An entry is removed when it equals {@code
   * name} or when its package name without version or extras does (so uninstalling {@code requests}
   * removes {@code requests==2.32.3}).
   */
  public Packages without(PackageType type, String name) {
    var kept =
        of(type).stream()
            .filter(entry ->
                !Objects.equals(entry, name)
                    && !Objects.equals(PackageNames.baseName(type, entry), name))
            .toList();
    return with(type, kept);
  }

  private Packages with(PackageType type, List<String> names) {
    return switch (type) {
      case SYSTEM -> new Packages(names, python, node);
      case PYTHON -> new Packages(system, names, node);
      case NODE -> new Packages(system, python, names);
    };
  }

  private static List<String> immutableCopy(List<String> names) {
    return names == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(names));
  }
}
