package dev.threadline.api.stream;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;

/**
 * The REST ids a run's stream events carry, all derived from Kubernetes names so that they are
 * stable: reading the same run twice yields the same ids.
 *
 * @param runId e.g. {@code run_abc-1} for the Run {@code run-abc-1}
 * @param threadId e.g. {@code thread_abc}
 */
record RunIds(String runId, String threadId) {
  static RunIds of(Run run) {
    return new RunIds(
        ResourceIds.toId(run.getMetadata().getName()), ResourceIds.toId(run.getSpec().getThread()));
  }

  /**
   * An item's id: its kind's prefix, the run's id suffix and the event's seq ({@code
   * tool_abc-1-4}).
   */
  String itemId(String prefix, RunEvent event) {
    return prefix + "_" + suffix(runId) + "-" + event.getSeq();
  }

  /** The thread's workspace (one per thread, shared by its runs): {@code workspace_abc}. */
  String workspaceId() {
    return "workspace_" + suffix(threadId);
  }

  private static String suffix(String id) {
    return id.substring(id.indexOf('_') + 1);
  }
}
