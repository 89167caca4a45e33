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
 * The live channel of a direct call: opened before the model is called and announced in {@code
 * status.deltaChannel} (one status patch, only for runs that asked for {@code streamTokens}), so
 * that the api-server can read the answer while it is written; ended before the status with the
 * whole answer is written.
 */
final class DirectDeltas {
  private static final Logger LOG = LoggerFactory.getLogger(DirectDeltas.class);

  private DirectDeltas() {}

  static Optional<DeltaSession> open(
      DeltaHub hub, Run run, RunStatus status, Context<Run> context) {
    Optional<DeltaSession> session = hub.open(run);
    if (session.isEmpty()) {
      return session;
    }
    String url = hub.url(session.get());
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
      session.get().close();
      return Optional.empty();
    }
    status.setDeltaChannel(url);
    return session;
  }

  /** The id of the direct answer's message item: {@code msg_<run suffix>}. */
  static String itemId(Run run) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    return "msg_" + runId.substring(runId.indexOf('_') + 1);
  }

  /** Marks every delta as preceding the log as it will be written, and ends the session. */
  static void end(DeltaSession session, RunStatus status) {
    List<RunEvent> events = status.getEvents();
    if (events != null && !events.isEmpty()) {
      session.written(events.getLast().getSeq());
    }
    session.close();
  }
}
