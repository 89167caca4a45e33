package dev.threadline.operator.support;

import dev.threadline.history.History;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.config.HistoryLimits;
import dev.threadline.operator.pool.WorkspaceArchives;
import dev.threadline.operator.run.RunEventLog;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * One temporary history store for the tests of a JVM that wire parts by hand (closed, and its
 * folder removed, when the JVM ends), and the parts made over it.
 */
public final class SharedHistory {
  private static final History HISTORY = open();

  private SharedHistory() {}

  private static History open() {
    History history = History.temporary();
    Runtime.getRuntime().addShutdownHook(new Thread(history::close));
    return history;
  }

  public static History history() {
    return HISTORY;
  }

  public static ComputerStatus statuses() {
    return new ComputerStatus(
        new EventRecorder(new RunEventLog(HISTORY), HistoryLimits.DEFAULT_TOOL_OUTPUT));
  }

  public static WorkspaceArchives archives(KubernetesClient client) {
    return new WorkspaceArchives(
        client, HISTORY.workspaces(), Clock.systemUTC(), HistoryLimits.DEFAULT_WORKSPACE_ARCHIVE);
  }
}
