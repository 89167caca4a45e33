package dev.threadline.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The history store: the system of record for conversation content. Kubernetes objects keep the
 * control plane (spec, phase, counters) and point here; everything a conversation accumulates —
 * messages, every run event, the agent's memory, diffs, workspace archives, and the threads and
 * runs that left the API — is here. One instance per process, shared by its parts; thread-safe.
 */
public final class History implements AutoCloseable {
  /** The tables holding a run's content, each with its column naming the run. */
  private static final String[][] RUN_TABLES = {
    {"runs", "name"},
    {"message_bodies", "run"},
    {"run_events", "run"},
    {"run_event_counters", "run"},
    {"memory_steps", "run"},
    {"run_diffs", "run"},
    {"run_answers", "run"}
  };

  /** The tables that hold a thread's rows, each with {@code namespace} and {@code thread}. */
  private static final List<String> THREAD_TABLES =
      List.of(
          "runs",
          "message_bodies",
          "run_events",
          "run_event_counters",
          "memory_steps",
          "run_diffs",
          "run_answers",
          "workspace_archives");

  private final HistoryDatabase database;
  private final EventLog events;
  private final MemoryLog memory;
  private final RunRecords runs;
  private final DiffLog diffs;
  private final WorkspaceArchiveStore workspaces;
  private final ThreadArchive threads;
  private final NamespaceUsage usage;
  private final MessageBodies messages;
  private final RunAnswers answers;
  private Runnable onClose = () -> {};

  private History(HistoryDatabase database) {
    this.database = database;
    this.events = new EventLog(database);
    this.memory = new MemoryLog(database);
    this.runs = new RunRecords(database);
    this.diffs = new DiffLog(database);
    this.workspaces = new WorkspaceArchiveStore(database);
    this.threads = new ThreadArchive(database);
    this.usage = new NamespaceUsage(database);
    this.messages = new MessageBodies(database);
    this.answers = new RunAnswers(database);
  }

  /** Opens the store, migrating its schema to this version's. */
  public static History open(HistorySettings settings) {
    return new History(HistoryDatabase.open(settings));
  }

  /**
   * A store that keeps nothing beyond the process: an SQLite file in a new temporary folder,
   * removed on close. For tests and for embedding a part on its own; a deployment names its store
   * ({@link HistorySettings#fromEnvironment}).
   */
  public static History temporary() {
    Path folder;
    try {
      folder = Files.createTempDirectory("threadline-history");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make a temporary history store", e);
    }
    History history = open(HistorySettings.sqlite(folder.resolve("history.db")));
    history.onClose = () -> deleteFolder(folder);
    return history;
  }

  private static void deleteFolder(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    } catch (IOException ignored) {
      // A temporary folder: the system's cleaner gets what is left.
    }
  }

  public Engine engine() {
    return database.engine();
  }

  public EventLog events() {
    return events;
  }

  public MemoryLog memory() {
    return memory;
  }

  public RunRecords runs() {
    return runs;
  }

  public DiffLog diffs() {
    return diffs;
  }

  public WorkspaceArchiveStore workspaces() {
    return workspaces;
  }

  public ThreadArchive threads() {
    return threads;
  }

  public MessageBodies messageBodies() {
    return messages;
  }

  public RunAnswers answers() {
    return answers;
  }

  public NamespaceUsage usage() {
    return usage;
  }

  /** Removes everything the store holds of a thread: its runs, events, memory, diffs, archive. */
  public void deleteThread(String namespace, String thread) {
    database.transaction(connection -> {
      long bytes = 0;
      for (String table : THREAD_TABLES) {
        if (!table.equals("run_event_counters")) {
          bytes +=
              Sql.number(
                  connection,
                  "SELECT SUM(bytes) FROM " + table + " WHERE namespace = ? AND thread = ?",
                  namespace,
                  thread);
        }
        Sql.update(
            connection,
            "DELETE FROM " + table + " WHERE namespace = ? AND thread = ?",
            namespace,
            thread);
      }
      bytes += ThreadArchive.forget(connection, namespace, thread);
      NamespaceUsage.add(connection, namespace, -bytes);
      return null;
    });
  }

  /**
   * Removes everything the store holds of one run (its record, message body, events, memory, diffs
   * and answers), as if it had never been asked: a run a {@code rollback} message undid.
   */
  public void deleteRun(RunKey run) {
    database.transaction(connection -> {
      long bytes = 0;
      for (String[] table : RUN_TABLES) {
        String where = " WHERE namespace = ? AND " + table[1] + " = ?";
        if (!table[0].equals("run_event_counters")) {
          bytes +=
              Sql.number(
                  connection,
                  "SELECT SUM(bytes) FROM " + table[0] + where,
                  run.namespace(),
                  run.run());
        }
        Sql.update(connection, "DELETE FROM " + table[0] + where, run.namespace(), run.run());
      }
      NamespaceUsage.add(connection, run.namespace(), -bytes);
      return null;
    });
  }

  @Override
  public void close() {
    database.close();
    onClose.run();
  }
}
