package dev.threadline.history;

import java.util.List;

/**
 * The agent's working memory of each run as an append-only log of steps: a step adds its entry (the
 * model's reply, a tool's result), nothing rewrites what came before, so step n costs the same as
 * step 1. The number of the last step is the memory's version and the run's fencing token: a worker
 * appends step n only where no step n exists, so of two workers that went on from the same step
 * exactly one succeeds and the other learns it was {@link Superseded}.
 */
public final class MemoryLog {
  private final HistoryDatabase database;

  MemoryLog(HistoryDatabase database) {
    this.database = database;
  }

  /** Another worker appended this step first: the run is being worked on elsewhere. */
  public static final class Superseded extends RuntimeException {
    public Superseded(RunKey run, long step) {
      super("step " + step + " of run " + run.run() + " was written by another worker");
    }
  }

  /** One step of the log: its number (from 1) and its entry (the caller's JSON). */
  public record Step(long step, String entry) {}

  /** The run's steps, oldest first (empty: no memory yet). */
  public List<Step> read(RunKey run) {
    return database.read(connection ->
        Sql.query(
            connection,
            "SELECT step, entry FROM memory_steps WHERE namespace = ? AND run = ? ORDER BY step",
            row -> new Step(row.getLong("step"), row.getString("entry")),
            run.namespace(),
            run.run()));
  }

  /**
   * Appends {@code entry} as step {@code step}, which must follow the last step this worker read or
   * wrote.
   *
   * @throws Superseded when the run has a step {@code step} already
   */
  public void append(RunKey run, long step, String entry) {
    if (step < 1) {
      throw new IllegalArgumentException("steps are numbered from 1");
    }
    long bytes = Sql.bytes(entry) + 16;
    database.transaction(connection -> {
      if (step > 1
          && Sql.number(
                  connection,
                  "SELECT COUNT(*) FROM memory_steps WHERE namespace = ? AND run = ? AND step = ?",
                  run.namespace(),
                  run.run(),
                  step - 1)
              == 0) {
        throw new IllegalStateException(
            "step " + step + " of run " + run.run() + " does not follow a stored step");
      }
      int inserted =
          Sql.update(
              connection,
              "INSERT INTO memory_steps (namespace, thread, run, step, entry, bytes)"
                  + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, run, step) DO NOTHING",
              run.namespace(),
              run.thread(),
              run.run(),
              step,
              entry,
              bytes);
      if (inserted == 0) {
        throw new Superseded(run, step);
      }
      NamespaceUsage.add(connection, run.namespace(), bytes);
      return null;
    });
  }

  /** Drops the run's memory (its run ended and nothing needs to go on from it). */
  public void delete(RunKey run) {
    database.transaction(connection -> {
      long bytes =
          Sql.number(
              connection,
              "SELECT SUM(bytes) FROM memory_steps WHERE namespace = ? AND run = ?",
              run.namespace(),
              run.run());
      Sql.update(
          connection,
          "DELETE FROM memory_steps WHERE namespace = ? AND run = ?",
          run.namespace(),
          run.run());
      NamespaceUsage.add(connection, run.namespace(), -bytes);
      return null;
    });
  }
}
