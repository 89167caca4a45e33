package dev.threadline.history;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Threads that left the Kubernetes API after their retention, kept as they were so that REST goes
 * on serving them; a follow-up message brings one back ({@link #remove} after it is live again).
 */
public final class ThreadArchive {
  private static final String COLUMNS = "namespace, name, created_at, archived_at, object";
  private final HistoryDatabase database;

  ThreadArchive(HistoryDatabase database) {
    this.database = database;
  }

  /** Keeps the thread (again: the newer object replaces the older). */
  public void archive(ArchivedThread thread) {
    long bytes = Sql.bytes(thread.object()) + 64;
    database.transaction(connection -> {
      long before = storedBytes(connection, thread.namespace(), thread.name());
      if (before == 0) {
        addToCount(connection, thread.namespace(), 1);
      }
      Sql.update(
          connection,
          "INSERT INTO archived_threads (namespace, name, created_at, archived_at, object, bytes)"
              + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, name) DO UPDATE SET"
              + " created_at = excluded.created_at, archived_at = excluded.archived_at,"
              + " object = excluded.object, bytes = excluded.bytes",
          thread.namespace(),
          thread.name(),
          thread.createdAt(),
          thread.archivedAt(),
          thread.object(),
          bytes);
      NamespaceUsage.add(connection, thread.namespace(), bytes - before);
      return null;
    });
  }

  public Optional<ArchivedThread> find(String namespace, String name) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                "SELECT " + COLUMNS + " FROM archived_threads WHERE namespace = ? AND name = ?",
                ThreadArchive::thread,
                namespace,
                name))
        .stream()
        .findFirst();
  }

  /**
   * The namespace's archived threads, newest first, at most {@code limit}, after the position
   * ({@code createdAt}, {@code name}) of the last one a page showed (both null: from the newest).
   */
  public List<ArchivedThread> page(
      String namespace, String afterCreatedAt, String afterName, int limit) {
    if (afterCreatedAt == null) {
      return database.read(connection ->
          Sql.query(
              connection,
              "SELECT "
                  + COLUMNS
                  + " FROM archived_threads WHERE namespace = ?"
                  + " ORDER BY created_at DESC, name DESC LIMIT ?",
              ThreadArchive::thread,
              namespace,
              limit));
    }
    return database.read(connection ->
        Sql.query(
            connection,
            "SELECT "
                + COLUMNS
                + " FROM archived_threads WHERE namespace = ?"
                + " AND (created_at < ? OR (created_at = ? AND name < ?))"
                + " ORDER BY created_at DESC, name DESC LIMIT ?",
            ThreadArchive::thread,
            namespace,
            afterCreatedAt,
            afterCreatedAt,
            afterName,
            limit));
  }

  /** How many threads of the namespace are archived (one row read, not a count of them all). */
  public long count(String namespace) {
    return database.read(connection ->
        Sql.number(
            connection,
            "SELECT threads FROM archived_thread_counts WHERE namespace = ?",
            namespace));
  }

  /** Forgets the archived object (the thread is live again; its history stays). */
  public void remove(String namespace, String name) {
    database.transaction(connection -> {
      NamespaceUsage.add(connection, namespace, -forget(connection, namespace, name));
      return null;
    });
  }

  /**
   * Deletes the archived object inside the caller's transaction and keeps the count; answers the
   * bytes it held (0 when none was archived) for the caller's usage change.
   */
  static long forget(Connection connection, String namespace, String name) throws SQLException {
    long bytes = storedBytes(connection, namespace, name);
    int deleted =
        Sql.update(
            connection,
            "DELETE FROM archived_threads WHERE namespace = ? AND name = ?",
            namespace,
            name);
    if (deleted > 0) {
      addToCount(connection, namespace, -deleted);
    }
    return bytes;
  }

  private static long storedBytes(Connection connection, String namespace, String name)
      throws SQLException {
    return Sql.number(
        connection,
        "SELECT bytes FROM archived_threads WHERE namespace = ? AND name = ?",
        namespace,
        name);
  }

  private static void addToCount(Connection connection, String namespace, long delta)
      throws SQLException {
    Sql.update(
        connection,
        "INSERT INTO archived_thread_counts (namespace, threads) VALUES (?, ?) ON CONFLICT"
            + " (namespace) DO UPDATE SET threads = archived_thread_counts.threads"
            + " + excluded.threads",
        namespace,
        delta);
  }

  private static ArchivedThread thread(ResultSet row) throws SQLException {
    return new ArchivedThread(
        row.getString("namespace"),
        row.getString("name"),
        row.getString("created_at"),
        row.getString("archived_at"),
        row.getString("object"));
  }
}
