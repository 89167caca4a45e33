package dev.threadline.history;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Messages too long to travel in a Run's spec: the API server stores the body under a fresh id
 * before it creates the Run, whose spec names the id, so the body exists whenever the Run does. The
 * Run then claims it ({@link #claim}); a body whose Run was never made is deleted on that failure
 * ({@link #deleteUnclaimed}), or by the retention sweep once old ({@link #removeUnclaimed}), so no
 * body outlives a Run that does not exist.
 */
public final class MessageBodies {
  private final HistoryDatabase database;

  MessageBodies(HistoryDatabase database) {
    this.database = database;
  }

  /** Stores {@code body} under {@code id} (unique: e.g. a random UUID), claimed by no run yet. */
  public void write(String namespace, String thread, String id, String body) {
    long bytes = Sql.bytes(body) + 64;
    database.transaction(connection -> {
      Sql.update(
          connection,
          "INSERT INTO message_bodies (namespace, thread, id, body, bytes, stored_ms)"
              + " VALUES (?, ?, ?, ?, ?, ?)",
          namespace,
          thread,
          id,
          body,
          bytes,
          Instant.now().toEpochMilli());
      NamespaceUsage.add(connection, namespace, bytes);
      return null;
    });
  }

  public Optional<String> read(String namespace, String id) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                "SELECT body FROM message_bodies WHERE namespace = ? AND id = ?",
                row -> row.getString(1),
                namespace,
                id))
        .stream()
        .findFirst();
  }

  /**
   * Marks the body as the message of {@code run}, which exists: the sweep keeps it from then on.
   * The first claim wins; a repeat changes nothing.
   */
  public void claim(String namespace, String id, String run) {
    database.transaction(connection ->
        Sql.update(
            connection,
            "UPDATE message_bodies SET run = ? WHERE namespace = ? AND id = ? AND run IS NULL",
            run,
            namespace,
            id));
  }

  /**
   * Deletes a body no run claimed (the creation of its Run failed), giving its bytes back to the
   * namespace; false when there is none such.
   */
  public boolean deleteUnclaimed(String namespace, String id) {
    return database.transaction(connection -> delete(connection, namespace, id));
  }

  /**
   * Deletes at most {@code limit} bodies no run claimed that were stored before {@code
   * storedBefore}, oldest first, giving their bytes back; answers how many went (the caller repeats
   * while it gets {@code limit}).
   */
  public int removeUnclaimed(Instant storedBefore, int limit) {
    return database.transaction(connection -> {
      List<String[]> unclaimed =
          Sql.query(
              connection,
              "SELECT namespace, id FROM message_bodies WHERE run IS NULL AND stored_ms < ?"
                  + " ORDER BY stored_ms LIMIT ?",
              row -> new String[] {row.getString(1), row.getString(2)},
              storedBefore.toEpochMilli(),
              limit);
      int removed = 0;
      for (String[] body : unclaimed) {
        if (delete(connection, body[0], body[1])) {
          removed++;
        }
      }
      return removed;
    });
  }

  private static boolean delete(Connection connection, String namespace, String id)
      throws SQLException {
    long bytes =
        Sql.number(
            connection,
            "SELECT bytes FROM message_bodies WHERE namespace = ? AND id = ? AND run IS NULL",
            namespace,
            id);
    int deleted =
        Sql.update(
            connection,
            "DELETE FROM message_bodies WHERE namespace = ? AND id = ? AND run IS NULL",
            namespace,
            id);
    if (deleted == 0) {
      return false;
    }
    NamespaceUsage.add(connection, namespace, -bytes);
    return true;
  }
}
