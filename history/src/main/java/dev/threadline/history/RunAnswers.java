package dev.threadline.history;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The texts of people's answers to the calls runs waited on, kept here rather than in the Run (a
 * Run stays small however many calls it waited on). The API server records an answer before it
 * tells the Run about it, so whichever worker replica sees the Run's change reads the text here.
 * One answer per call: the first recorded stays.
 */
public final class RunAnswers {
  private final HistoryDatabase database;

  RunAnswers(HistoryDatabase database) {
    this.database = database;
  }

  /**
   * Records {@code answer} for its call of {@code run} unless one is recorded already; answers the
   * recorded one (the earlier, when there was one), or empty when the run has {@code limit} answers
   * already and none for this call.
   */
  public Optional<StoredAnswer> record(RunKey run, StoredAnswer answer, int limit) {
    return database.transaction(connection -> {
      Optional<StoredAnswer> recorded =
          find(connection, run.namespace(), run.run(), answer.callId());
      if (recorded.isPresent()) {
        return recorded;
      }
      long answers =
          Sql.number(
              connection,
              "SELECT COUNT(*) FROM run_answers WHERE namespace = ? AND run = ?",
              run.namespace(),
              run.run());
      if (answers >= limit) {
        return Optional.empty();
      }
      long bytes =
          Sql.bytes(answer.callId())
              + Sql.bytes(answer.decision())
              + Sql.bytes(answer.message())
              + Sql.bytes(answer.answer())
              + 64;
      Sql.update(
          connection,
          "INSERT INTO run_answers (namespace, thread, run, call_id, decision, message, answer,"
              + " answered_at, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          run.namespace(),
          run.thread(),
          run.run(),
          answer.callId(),
          answer.decision(),
          answer.message(),
          answer.answer(),
          answer.answeredAt(),
          bytes);
      NamespaceUsage.add(connection, run.namespace(), bytes);
      return Optional.of(
          new StoredAnswer(
              run.run(),
              answer.callId(),
              answer.decision(),
              answer.message(),
              answer.answer(),
              answer.answeredAt()));
    });
  }

  /** The answer recorded for the call {@code callId} of the run {@code run}. */
  public Optional<StoredAnswer> of(RunKey run, String callId) {
    return database.read(connection -> find(connection, run.namespace(), run.run(), callId));
  }

  /** The answer recorded for the call {@code callId} of any run of the thread. */
  public Optional<StoredAnswer> inThread(String namespace, String thread, String callId) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                SELECT + " WHERE namespace = ? AND thread = ? AND call_id = ?",
                RunAnswers::answer,
                namespace,
                thread,
                callId))
        .stream()
        .findFirst();
  }

  private static final String SELECT =
      "SELECT run, call_id, decision, message, answer, answered_at FROM run_answers";

  private static Optional<StoredAnswer> find(
      Connection connection, String namespace, String run, String callId) throws SQLException {
    return Sql.query(
            connection,
            SELECT + " WHERE namespace = ? AND run = ? AND call_id = ?",
            RunAnswers::answer,
            namespace,
            run,
            callId)
        .stream()
        .findFirst();
  }

  private static StoredAnswer answer(ResultSet row) throws SQLException {
    return new StoredAnswer(
        row.getString(1),
        row.getString(2),
        row.getString(3),
        row.getString(4),
        row.getString(5),
        row.getString(6));
  }
}
