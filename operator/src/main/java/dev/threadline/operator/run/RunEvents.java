package dev.threadline.operator.run;

import dev.threadline.core.routing.Route;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The Events of a Run a person reads with {@code kubectl describe run}: its route (Routed) and its
 * end (RunSucceeded, RunFailed, RunCancelled). They say what happened, never what was said: no
 * message, answer, route reason (it may quote the task) or error text, only the route, the phase,
 * the error's code and the duration.
 */
final class RunEvents {
  private final KubernetesEvents events;

  RunEvents(KubernetesEvents events) {
    this.events = events;
  }

  void routed(KubernetesClient client, Run run, Route route) {
    events.normal(client, run, "Routed", "Routed: " + route.value());
  }

  void ended(KubernetesClient client, Run run, RunStatus status) {
    RunPhase phase = status.getPhase() == null ? null : RunPhase.fromValue(status.getPhase());
    if (phase == null || !phase.isTerminal()) {
      return;
    }
    String took = status.getDurationMs() == null ? "" : " in " + status.getDurationMs() + " ms";
    switch (phase) {
      case COMPLETED -> events.normal(client, run, "RunSucceeded", "The run completed" + took);
      case CANCELLED -> events.normal(client, run, "RunCancelled", "The run was cancelled" + took);
      default ->
          events.warning(
              client,
              run,
              "RunFailed",
              "The run failed"
                  + took
                  + (status.getError() == null || status.getError().getCode() == null
                      ? ""
                      : " (" + status.getError().getCode() + "); status.error says why"));
    }
  }
}
