package dev.threadline.history;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** The runs' messages and answers, in full, and the runs that left the Kubernetes API. */
public final class RunRecords {
  private static final String COLUMNS =
      "namespace, thread, name, sequence, message, response, created_at, archived";

  private final HistoryDatabase database;

  RunRecords(HistoryDatabase database) {
    this.database = database;
  }

  /** Records the run's message (again: the first record wins; its answer is kept). */
  public void recordMessage(RunKey run, long sequence, String message, String createdAt) {
    long bytes = Sql.bytes(message) + 64;
    database.transaction(connection -> {
      int inserted =
          Sql.update(
              connection,
              "INSERT INTO runs (namespace, thread, name, sequence, message, created_at, bytes)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, name) DO NOTHING",
              run.namespace(),
              run.thread(),
              run.run(),
              sequence,
              message,
              createdAt,
              bytes);
      if (inserted > 0) {
        NamespaceUsage.add(connection, run.namespace(), bytes);
      }
      return null;
    });
  }

  /** Records the run's whole answer (the message must be recorded). */
  public void recordResponse(RunKey run, String response) {
    change(run, "response", response);
  }

  /** Keeps the Run's JSON as it left the Kubernetes API (the message must be recorded). */
  public void recordArchived(RunKey run, String json) {
    change(run, "archived", json);
  }

  private void change(RunKey run, String column, String value) {
    database.transaction(connection -> {
      List<Long> before =
          Sql.query(
              connection,
              "SELECT bytes FROM runs WHERE namespace = ? AND name = ?",
              row -> row.getLong(1),
              run.namespace(),
              run.run());
      if (before.isEmpty()) {
        throw new HistoryException("run " + run.run() + " has no recorded message");
      }
      long previous =
          Sql.number(
              connection,
              "SELECT LENGTH(" + column + ") FROM runs WHERE namespace = ? AND name = ?",
              run.namespace(),
              run.run());
      long delta = Sql.bytes(value) - previous;
      Sql.update(
          connection,
          "UPDATE runs SET " + column + " = ?, bytes = bytes + ? WHERE namespace = ? AND name = ?",
          value,
          delta,
          run.namespace(),
          run.run());
      NamespaceUsage.add(connection, run.namespace(), delta);
      return null;
    });
  }

  public Optional<RunRecord> find(String namespace, String run) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                "SELECT " + COLUMNS + " FROM runs WHERE namespace = ? AND name = ?",
                RunRecords::record,
                namespace,
                run))
        .stream()
        .findFirst();
  }

  /** The thread's runs in sequence order. */
  public List<RunRecord> ofThread(String namespace, String thread) {
    return database.read(connection -> ofThread(connection, namespace, thread));
  }

  static List<RunRecord> ofThread(Connection connection, String namespace, String thread)
      throws SQLException {
    return Sql.query(
        connection,
        "SELECT " + COLUMNS + " FROM runs WHERE namespace = ? AND thread = ? ORDER BY sequence",
        RunRecords::record,
        namespace,
        thread);
  }

  private static RunRecord record(ResultSet row) throws SQLException {
    return new RunRecord(
        new RunKey(row.getString("namespace"), row.getString("thread"), row.getString("name")),
        row.getLong("sequence"),
        row.getString("message"),
        row.getString("created_at"),
        row.getString("response"),
        row.getString("archived"));
  }
}
