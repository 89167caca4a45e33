package dev.threadline.api.stream;

import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import java.util.regex.Pattern;

/**
 * The REST ids a run's stream events carry, all derived from Kubernetes names so that they are
 * stable: reading the same run twice yields the same ids.
 *
 * @param runId e.g. {@code run_abc-1} for the Run {@code run-abc-1}
 * @param threadId e.g. {@code thread_abc}
 */
record RunIds(String runId, String threadId) {
  private static final Pattern NAMED = Pattern.compile("[a-z]{1,20}_[a-z0-9][-a-z0-9]{0,100}");

  static RunIds of(Run run) {
    return new RunIds(
        ResourceIds.toId(run.getMetadata().getName()), ResourceIds.toId(run.getSpec().getThread()));
  }

  /**
   * An item's id: the one its producer streamed its deltas under ({@code itemId} in the log entry,
   * for runs that asked for {@code streamTokens}), else its kind's prefix, the run's id suffix and
   * the event's seq ({@code tool_abc-1-4}).
   */
  String itemId(String prefix, LogEvent event) {
    if (event.data() != null) {
      String named = event.data().path(DeltaWire.ITEM_ID).asText("");
      if (NAMED.matcher(named).matches()) {
        return named;
      }
    }
    return prefix + "_" + suffix(runId) + "-" + event.seq();
  }

  /** The thread's workspace (one per thread, shared by its runs): {@code workspace_abc}. */
  String workspaceId() {
    return "workspace_" + suffix(threadId);
  }

  private static String suffix(String id) {
    return id.substring(id.indexOf('_') + 1);
  }
}
