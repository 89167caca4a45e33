package dev.threadline.local.kubeapi.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables, after kine's: {@code objects} holds the current object of every key (with the
 * revision of its last write), {@code labels} and {@code owners} index them for label selectors and
 * owner-reference cascades, {@code log} holds every write by revision for watches until compaction,
 * {@code meta} the compacted revision.
 */
final class StoreSchema {
  static final int VERSION = 1;

  private static final List<String> DDL =
      List.of(
          """
          CREATE TABLE IF NOT EXISTS objects (
            id INTEGER PRIMARY KEY,
            resource TEXT NOT NULL,
            namespace TEXT NOT NULL,
            name TEXT NOT NULL,
            revision INTEGER NOT NULL,
            body TEXT NOT NULL,
            UNIQUE (resource, namespace, name))\
          """,
          "CREATE INDEX IF NOT EXISTS objects_by_namespace ON objects (namespace)",
          """
          CREATE TABLE IF NOT EXISTS labels (
            object_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (object_id, key)) WITHOUT ROWID\
          """,
          "CREATE INDEX IF NOT EXISTS labels_by_value ON labels (key, value, object_id)",
          """
          CREATE TABLE IF NOT EXISTS owners (
            owner_uid TEXT NOT NULL,
            object_id INTEGER NOT NULL,
            PRIMARY KEY (owner_uid, object_id)) WITHOUT ROWID\
          """,
          "CREATE INDEX IF NOT EXISTS owners_by_object ON owners (object_id)",
          """
          CREATE TABLE IF NOT EXISTS log (
            revision INTEGER PRIMARY KEY,
            resource TEXT NOT NULL,
            namespace TEXT NOT NULL,
            name TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL)\
          """,
          "CREATE INDEX IF NOT EXISTS log_by_resource ON log (resource, revision)",
          // An object's write before a watch's resourceVersion (a replay's enter/leave decision).
          "CREATE INDEX IF NOT EXISTS log_by_key ON log (resource, namespace, name, revision)",
          "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
          "INSERT OR IGNORE INTO meta (key, value) VALUES ('compacted', 0)",
          "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', " + VERSION + ")");

  private StoreSchema() {}

  /** Settings of every connection: WAL, so readers never wait for the writer. */
  static void configure(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA journal_mode = WAL");
      // FULL: a write is on disk before it is acknowledged, so a power cut loses nothing
      // acknowledged either (NORMAL would only survive a crash of the process).
      statement.execute("PRAGMA synchronous = FULL");
      statement.execute("PRAGMA busy_timeout = 10000");
      statement.execute("PRAGMA temp_store = MEMORY");
      statement.execute("PRAGMA cache_size = -16000");
    }
  }

  static void create(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String ddl : DDL) {
        statement.execute(ddl);
      }
      try (var rs = statement.executeQuery("SELECT value FROM meta WHERE key = 'schema'")) {
        int version = rs.next() ? rs.getInt(1) : VERSION;
        if (version != VERSION) {
          throw new SQLException(
              "the store was written by another version of Threadline (schema "
                  + version
                  + ", this one reads "
                  + VERSION
                  + ")");
        }
      }
    }
  }
}
