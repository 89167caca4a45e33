package dev.threadline.history;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The files each run changed, in any number: what {@code GET …/diffs} reads. */
public final class DiffLog {
  private final HistoryDatabase database;

  DiffLog(HistoryDatabase database) {
    this.database = database;
  }

  /**
   * Records the run's changes, replacing any recorded for it before (a run's diffs are taken once,
   * at its end; a worker that repeats the end writes the same again).
   */
  public void record(RunKey run, long runSequence, List<StoredDiff> diffs) {
    database.transaction(connection -> {
      long before =
          Sql.number(
              connection,
              "SELECT SUM(bytes) FROM run_diffs WHERE namespace = ? AND run = ?",
              run.namespace(),
              run.run());
      Sql.update(
          connection,
          "DELETE FROM run_diffs WHERE namespace = ? AND run = ?",
          run.namespace(),
          run.run());
      long bytes = 0;
      int position = 0;
      for (StoredDiff diff : diffs) {
        long size = Sql.bytes(diff.path()) + Sql.bytes(diff.content()) + 48;
        Sql.update(
            connection,
            "INSERT INTO run_diffs (namespace, thread, run, run_sequence, position, path, change,"
                + " content, additions, deletions, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            run.namespace(),
            run.thread(),
            run.run(),
            runSequence,
            position++,
            diff.path(),
            diff.change(),
            diff.content(),
            diff.additions(),
            diff.deletions(),
            size);
        bytes += size;
      }
      NamespaceUsage.add(connection, run.namespace(), bytes - before);
      return null;
    });
  }

  /** The run's changes in the order they were recorded. */
  public List<StoredDiff> ofRun(RunKey run) {
    return database.read(connection ->
        Sql.query(
            connection,
            "SELECT path, change, content, additions, deletions FROM run_diffs"
                + " WHERE namespace = ? AND run = ? ORDER BY position",
            DiffLog::diff,
            run.namespace(),
            run.run()));
  }

  /**
   * The thread's workspace changes: per path, the latest run's change (a file made in one run and
   * edited in the next reads as the edit). Keyed by path, in path order.
   */
  public Map<String, StoredDiff> latestOfThread(String namespace, String thread) {
    List<StoredDiff> all =
        database.read(connection ->
            Sql.query(
                connection,
                "SELECT path, change, content, additions, deletions FROM run_diffs"
                    + " WHERE namespace = ? AND thread = ? ORDER BY run_sequence, position",
                DiffLog::diff,
                namespace,
                thread));
    Map<String, StoredDiff> latest = new java.util.TreeMap<>();
    for (StoredDiff diff : all) {
      latest.put(diff.path(), diff);
    }
    return new LinkedHashMap<>(latest);
  }

  private static StoredDiff diff(java.sql.ResultSet row) throws SQLException {
    long additions = row.getLong("additions");
    Long added = row.wasNull() ? null : additions;
    long deletions = row.getLong("deletions");
    Long deleted = row.wasNull() ? null : deletions;
    return new StoredDiff(
        row.getString("path"), row.getString("change"), row.getString("content"), added, deleted);
  }
}
