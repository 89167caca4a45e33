package dev.threadline.history;

import java.util.Optional;

/**
 * Messages too long to travel in a Run's spec: the API server stores the body under a fresh id
 * before it creates the Run, whose spec names the id, so the body exists whenever the Run does.
 */
public final class MessageBodies {
  private final HistoryDatabase database;

  MessageBodies(HistoryDatabase database) {
    this.database = database;
  }

  /** Stores {@code body} under {@code id} (unique: e.g. a random UUID). */
  public void write(String namespace, String thread, String id, String body) {
    long bytes = Sql.bytes(body) + 64;
    database.transaction(connection -> {
      Sql.update(
          connection,
          "INSERT INTO message_bodies (namespace, thread, id, body, bytes) VALUES (?, ?, ?, ?, ?)",
          namespace,
          thread,
          id,
          body,
          bytes);
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
}
