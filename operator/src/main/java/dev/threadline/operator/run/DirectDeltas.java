package dev.threadline.operator.run;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.deltas.DeltaSession;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live channel of a direct call: opened when the model is called and announced in {@code
 * status.deltaChannel} (one status patch, only for runs that asked for {@code streamTokens}), so
 * that the api-server can read the answer while it is written; ended before the status with the
 * whole answer is written.
 */
final class DirectDeltas {
  private static final Logger LOG = LoggerFactory.getLogger(DirectDeltas.class);

  private DirectDeltas() {}

  /**
   * Opens the run's session and announces it in the status on a virtual thread: the model call need
   * not wait for the write (the session keeps every delta for a late reader); {@link #end} waits
   * for it, so the write lands before the status with the answer.
   */
  static Optional<Announced> open(DeltaHub hub, Run run, RunStatus status, Context<Run> context) {
    Optional<DeltaSession> session = hub.open(run);
    if (session.isEmpty()) {
      return Optional.empty();
    }
    String url = hub.url(session.get());
    status.setDeltaChannel(url);
    Thread announcing =
        Thread.ofVirtual()
            .name("announce-" + run.getMetadata().getName())
            .start(() -> announce(run, url, context));
    return Optional.of(new Announced(session.get(), announcing));
  }

  /** A session and the status write that names it. */
  record Announced(DeltaSession session, Thread announcing) {}

  private static void announce(Run run, String url, Context<Run> context) {
    try {
      context
          .getClient()
          .resources(Run.class)
          .inNamespace(run.getMetadata().getNamespace())
          .withName(run.getMetadata().getName())
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              Serialization.asJson(Map.of("status", Map.of("deltaChannel", url))));
    } catch (KubernetesClientException e) {
      // The answer still reaches the client, in one piece, through the durable events.
      LOG.warn(
          "Run({}/{}) streams no deltas: its channel could not be announced: {}",
          run.getMetadata().getNamespace(),
          run.getMetadata().getName(),
          e.getMessage());
    }
  }

  /** The id of the direct answer's message item: {@code msg_<run suffix>}. */
  static String itemId(Run run) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    return "msg_" + runId.substring(runId.indexOf('_') + 1);
  }

  /**
   * Marks every delta as preceding the log as it will be written ({@code status} empty: nothing to
   * mark), ends the session and waits for its announcement.
   */
  static void end(Announced announced, Optional<RunStatus> status) {
    List<RunEvent> events = status.map(RunStatus::getEvents).orElse(List.of());
    if (!events.isEmpty()) {
      announced.session().written(events.getLast().getSeq());
    }
    announced.session().close();
    try {
      announced.announcing().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
