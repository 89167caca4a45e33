package dev.threadline.history;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The bytes each namespace (user) keeps in the history store, changed in the same transaction as
 * the rows it counts, so a storage quota reads one row instead of adding up a user's history.
 */
public final class NamespaceUsage {
  private final HistoryDatabase database;

  NamespaceUsage(HistoryDatabase database) {
    this.database = database;
  }

  /** Bytes {@code namespace} holds now. */
  public long bytes(String namespace) {
    return database.read(connection ->
        Sql.number(connection, "SELECT bytes FROM namespace_usage WHERE namespace = ?", namespace));
  }

  static void add(Connection connection, String namespace, long delta) throws SQLException {
    if (delta == 0) {
      return;
    }
    Sql.update(
        connection,
        "INSERT INTO namespace_usage (namespace, bytes) VALUES (?, ?) ON CONFLICT (namespace) DO"
            + " UPDATE SET bytes = namespace_usage.bytes + excluded.bytes",
        namespace,
        delta);
  }
}
