package dev.threadline.history;

import java.util.List;
import java.util.Optional;

/**
 * A thread's workspace kept between the runs of pool sandboxes, as the zip the sandbox made: any
 * size the user's storage quota allows (a Secret held at most 1 MiB).
 */
public final class WorkspaceArchiveStore {
  private final HistoryDatabase database;

  WorkspaceArchiveStore(HistoryDatabase database) {
    this.database = database;
  }

  /** Keeps {@code zip} as the thread's workspace, replacing the one before. */
  public void write(String namespace, String thread, byte[] zip, String updatedAt) {
    database.transaction(connection -> {
      long before =
          Sql.number(
              connection,
              "SELECT bytes FROM workspace_archives WHERE namespace = ? AND thread = ?",
              namespace,
              thread);
      Sql.update(
          connection,
          "INSERT INTO workspace_archives (namespace, thread, archive, updated_at, bytes)"
              + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, thread) DO UPDATE SET"
              + " archive = excluded.archive, updated_at = excluded.updated_at,"
              + " bytes = excluded.bytes",
          namespace,
          thread,
          zip,
          updatedAt,
          (long) zip.length);
      NamespaceUsage.add(connection, namespace, zip.length - before);
      return null;
    });
  }

  /** The kept zip, if any. */
  public Optional<byte[]> read(String namespace, String thread) {
    List<byte[]> found =
        database.read(connection ->
            Sql.query(
                connection,
                "SELECT archive FROM workspace_archives WHERE namespace = ? AND thread = ?",
                row -> row.getBytes(1),
                namespace,
                thread));
    return found.stream().findFirst();
  }

  /** Whether the thread has a kept zip. */
  public boolean exists(String namespace, String thread) {
    return database.read(connection ->
        Sql.number(
            connection,
            "SELECT COUNT(*) FROM workspace_archives WHERE namespace = ? AND thread = ?",
            namespace,
            thread))
        > 0;
  }
}
