package dev.threadline.history;

import java.util.Locale;

/** The database engines the history store runs on, told apart by their JDBC URL. */
public enum Engine {
  /** An SQLite file: the local mode's default, one process, no set-up. */
  SQLITE("db/migration/sqlite"),
  /** PostgreSQL: a cluster's store, shared by every api-server and operator replica. */
  POSTGRESQL("db/migration/postgresql");

  private final String migrations;

  Engine(String migrations) {
    this.migrations = migrations;
  }

  /** The classpath folder of this engine's Flyway migrations. */
  String migrations() {
    return migrations;
  }

  /**
   * The engine a JDBC URL names.
   *
   * @throws IllegalArgumentException for any other database
   */
  public static Engine of(String jdbcUrl) {
    String url = jdbcUrl == null ? "" : jdbcUrl.toLowerCase(Locale.ROOT);
    if (url.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (url.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException(
        "the history store's URL must be jdbc:sqlite:<file> or jdbc:postgresql://…, not "
            + (jdbcUrl == null || jdbcUrl.isBlank() ? "empty" : scheme(jdbcUrl)));
  }

  /** The URL up to its second colon: enough to say which driver, never a password in a URL. */
  private static String scheme(String url) {
    int first = url.indexOf(':');
    int second = first < 0 ? -1 : url.indexOf(':', first + 1);
    return second < 0
        ? "\"" + url.substring(0, Math.min(url.length(), 16)) + "…\""
        : url.substring(0, second + 1) + "…";
  }
}
