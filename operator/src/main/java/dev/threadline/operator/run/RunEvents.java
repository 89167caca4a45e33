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
 *
 * <p>A direct run that succeeds records none: it is most runs, over in milliseconds, and each Event
 * is one more API write watched by every client; its status says all of it. A direct run records
 * only how it ended when that was not a success (RunFailed, RunCancelled); a computer run records
 * its route and its end, whatever the end.
 */
final class RunEvents {
  private final KubernetesEvents events;

  RunEvents(KubernetesEvents events) {
    this.events = events;
  }

  /** A computer run's route; a direct run's is in its status alone. */
  void routed(KubernetesClient client, Run run, Route route) {
    if (route == Route.DIRECT) {
      return;
    }
    events.normal(client, run, "Routed", "Routed: " + route.value());
  }

  void ended(KubernetesClient client, Run run, RunStatus status) {
    RunPhase phase = status.getPhase() == null ? null : RunPhase.fromValue(status.getPhase());
    if (phase == null
        || !phase.isTerminal()
        || (phase == RunPhase.COMPLETED && Route.DIRECT.value().equals(status.getRoute()))) {
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
