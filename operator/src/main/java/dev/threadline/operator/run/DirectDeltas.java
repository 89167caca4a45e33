package dev.threadline.operator.run;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.models.TextDeltas;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.deltas.DeltaSession;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live channel of a direct call: opened when the model is called and announced in {@code
 * status.deltaChannel} (one status patch, only for runs that asked for {@code streamTokens}), so
 * that the api-server can read the answer while it is written; ended before the status with the
 * whole answer is written. Closing it ends it too, so a reconcile that throws (a reconcile uses it
 * in try-with-resources) leaves no session open for readers to wait on.
 */
final class DirectDeltas implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DirectDeltas.class);

  /** No channel: the run did not ask for deltas, the channel is off, or the run is routed. */
  static final DirectDeltas NONE = new DirectDeltas(null, null);

  private final DeltaSession session;
  private final Thread announcing;

  private DirectDeltas(DeltaSession session, Thread announcing) {
    this.session = session;
    this.announcing = announcing;
  }

  /**
   * Opens the run's session and announces it in the status on a virtual thread: the model call need
   * not wait for the write (the session keeps every delta for a late reader); {@link #end} waits
   * for it, so the write lands before the status with the answer. {@link #NONE} when the hub opens
   * no session for the run.
   */
  static DirectDeltas open(DeltaHub hub, Run run, RunStatus status, KubernetesClient client) {
    return hub.open(run)
        .map(session -> {
          String url = hub.url(session);
          status.setDeltaChannel(url);
          Thread announcing =
              Thread.ofVirtual()
                  .name("announce-" + run.getMetadata().getName())
                  .start(() -> announce(run, url, client));
          return new DirectDeltas(session, announcing);
        })
        .orElse(NONE);
  }

  private static void announce(Run run, String url, KubernetesClient client) {
    try {
      StatusFieldPatch.patch(client, run, "deltaChannel", url);
    } catch (KubernetesClientException e) {
      // The answer still reaches the client, in one piece, through the durable events.
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.warn("streams no deltas: its channel could not be announced: {}", e.getMessage());
      }
    }
  }

  /** The id of the direct answer's message item: {@code msg_<run suffix>}. */
  static String itemId(Run run) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    return "msg_" + runId.substring(runId.indexOf('_') + 1);
  }

  /** The listener for the direct answer's text: the session's, or one that drops it. */
  TextDeltas text(Run run) {
    return session == null ? TextDeltas.IGNORE : session.text(itemId(run));
  }

  /**
   * Marks every delta as preceding the log as it will be written ({@code status}'s last entry),
   * ends the session and waits for its announcement.
   */
  void end(RunStatus status) {
    if (session != null && status.getLastEventSeq() != null) {
      session.written(status.getLastEventSeq());
    }
    close();
  }

  /**
   * Ends the session without a mark (what was sent stays sent; readers get the end of the stream at
   * once) and waits for its announcement. Does nothing the second time.
   */
  @Override
  public void close() {
    if (session == null) {
      return;
    }
    session.close();
    try {
      announcing.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
