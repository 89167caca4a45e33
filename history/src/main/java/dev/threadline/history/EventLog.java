package dev.threadline.history;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every run's ordered event log, in full. The store numbers the events: one transaction per append
 * takes the run's counter row (a row lock on PostgreSQL; SQLite writes one at a time), skips keys
 * the run already has and inserts the rest after the last number. An appended event is committed:
 * readers see it at once, whatever the Run object says yet.
 */
public final class EventLog {
  private final HistoryDatabase database;

  EventLog(HistoryDatabase database) {
    this.database = database;
  }

  /**
   * Appends {@code events} in their order; returns each as stored (an event whose key the run had
   * already comes back as it was first stored).
   */
  public List<StoredEvent> append(RunKey run, List<NewEvent> events) {
    if (events.isEmpty()) {
      return List.of();
    }
    return database.transaction(connection -> append(connection, run, events));
  }

  private static List<StoredEvent> append(Connection connection, RunKey run, List<NewEvent> events)
      throws SQLException {
    long last = lockCounter(connection, run);
    List<StoredEvent> stored = new ArrayList<>(events.size());
    long bytes = 0;
    for (NewEvent event : events) {
      List<StoredEvent> existing =
          Sql.query(
              connection,
              "SELECT seq, event_key, type, time, data FROM run_events"
                  + " WHERE namespace = ? AND run = ? AND event_key = ?",
              EventLog::event,
              run.namespace(),
              run.run(),
              event.key());
      if (!existing.isEmpty()) {
        stored.add(existing.getFirst());
        continue;
      }
      long size = Sql.bytes(event.key()) + Sql.bytes(event.type()) + Sql.bytes(event.data()) + 32;
      last++;
      Sql.update(
          connection,
          "INSERT INTO run_events (namespace, thread, run, seq, event_key, type, time, data, bytes)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          run.namespace(),
          run.thread(),
          run.run(),
          last,
          event.key(),
          event.type(),
          event.time(),
          event.data(),
          size);
      bytes += size;
      stored.add(new StoredEvent(last, event.key(), event.type(), event.time(), event.data()));
    }
    Sql.update(
        connection,
        "UPDATE run_event_counters SET last_seq = ? WHERE namespace = ? AND run = ?",
        last,
        run.namespace(),
        run.run());
    NamespaceUsage.add(connection, run.namespace(), bytes);
    return stored;
  }

  /** Takes the run's counter (made at 0 when missing) and answers its last number. */
  private static long lockCounter(Connection connection, RunKey run) throws SQLException {
    Sql.update(
        connection,
        "INSERT INTO run_event_counters (namespace, thread, run, last_seq) VALUES (?, ?, ?, 0)"
            + " ON CONFLICT (namespace, run) DO UPDATE SET last_seq = run_event_counters.last_seq",
        run.namespace(),
        run.thread(),
        run.run());
    return Sql.number(
        connection,
        "SELECT last_seq FROM run_event_counters WHERE namespace = ? AND run = ?",
        run.namespace(),
        run.run());
  }

  /** The events numbered above {@code afterSeq}, oldest first, at most {@code limit}. */
  public List<StoredEvent> after(RunKey run, long afterSeq, int limit) {
    return database.read(connection ->
        Sql.query(
            connection,
            "SELECT seq, event_key, type, time, data FROM run_events"
                + " WHERE namespace = ? AND run = ? AND seq > ? ORDER BY seq LIMIT ?",
            EventLog::event,
            run.namespace(),
            run.run(),
            afterSeq,
            limit));
  }

  /** The run's event stored under {@code key}, if it has one. */
  public Optional<StoredEvent> find(RunKey run, String key) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                "SELECT seq, event_key, type, time, data FROM run_events"
                    + " WHERE namespace = ? AND run = ? AND event_key = ?",
                EventLog::event,
                run.namespace(),
                run.run(),
                key))
        .stream()
        .findFirst();
  }

  /** The whole log of a run, oldest first. */
  public List<StoredEvent> all(RunKey run) {
    return after(run, 0, Integer.MAX_VALUE);
  }

  /** The run's latest event of {@code type} (e.g. its {@code result}), if it has one. */
  public java.util.Optional<StoredEvent> latestOfType(RunKey run, String type) {
    return database
        .read(connection ->
            Sql.query(
                connection,
                "SELECT seq, event_key, type, time, data FROM run_events"
                    + " WHERE namespace = ? AND run = ? AND type = ? ORDER BY seq DESC LIMIT 1",
                EventLog::event,
                run.namespace(),
                run.run(),
                type))
        .stream()
        .findFirst();
  }

  /** The number of the run's last event; 0 when it has none. */
  public long lastSeq(RunKey run) {
    return database.read(connection ->
        Sql.number(
            connection,
            "SELECT last_seq FROM run_event_counters WHERE namespace = ? AND run = ?",
            run.namespace(),
            run.run()));
  }

  private static StoredEvent event(java.sql.ResultSet row) throws SQLException {
    return new StoredEvent(
        row.getLong("seq"),
        row.getString("event_key"),
        row.getString("type"),
        row.getString("time"),
        row.getString("data"));
  }
}
