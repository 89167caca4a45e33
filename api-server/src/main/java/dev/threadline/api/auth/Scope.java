package dev.threadline.api.auth;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What an API key may do. {@code read} allows every GET; a resource scope allows every operation on
 * its resource (reads included); {@code admin} allows everything.
 */
public enum Scope {
  READ,
  THREADS,
  SCHEDULES,
  ENVIRONMENTS,
  AGENTS,
  CONTAINERS,
  ADMIN;

  /** As written in a key Secret's {@code scopes} and in error messages. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Scope> of(String value) {
    for (Scope scope : values()) {
      if (scope.value().equals(value.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(scope);
      }
    }
    return Optional.empty();
  }

  /**
   * The scopes of a comma list. Unknown names are dropped (a key never gains a power from a typo);
   * null means the Secret names none: such keys predate scopes and keep every power.
   */
  static Set<Scope> parseList(String list) {
    if (list == null) {
      return EnumSet.allOf(Scope.class);
    }
    Set<Scope> scopes = EnumSet.noneOf(Scope.class);
    for (String name : list.split(",")) {
      if (!name.isBlank()) {
        of(name).ifPresent(scopes::add);
      }
    }
    return scopes;
  }
}
