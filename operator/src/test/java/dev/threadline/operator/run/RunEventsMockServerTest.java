package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.routing.Route;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.support.MutableClock;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which Events a Run records (written at once here, not in the background): a direct run that
 * succeeds none, a direct run that fails or is cancelled its end, a computer run its route and its
 * end.
 */
@EnableKubernetesMockClient(crud = true)
class RunEventsMockServerTest {
  private static final String NS = "erin";
  static KubernetesMockServer server;
  static KubernetesClient client;

  @BeforeAll
  static void registerCrds() {
    OperatorMockServer.registerCrds(server, client);
  }

  private final RunEvents events =
      new RunEvents(new KubernetesEvents(new MutableClock(Instant.parse("2026-12-02T10:00:00Z"))));

  @Test
  void aDirectRunThatSucceedsRecordsNoEvent() {
    Run run = run("thread-directok", 1);
    events.routed(client, run, Route.DIRECT);
    events.ended(client, run, ended(Route.DIRECT, RunPhase.COMPLETED));

    assertThat(reasonsOf(run)).isEmpty();
  }

  @Test
  void aDirectRunThatFailsOrIsCancelledRecordsHowItEnded() {
    Run failed = run("thread-directfailed", 1);
    events.routed(client, failed, Route.DIRECT);
    RunStatus failure = ended(Route.DIRECT, RunPhase.FAILED);
    RunError error = new RunError();
    error.setCode("model_unavailable");
    failure.setError(error);
    events.ended(client, failed, failure);
    Run cancelled = run("thread-directcancelled", 2);
    events.ended(client, cancelled, ended(Route.DIRECT, RunPhase.CANCELLED));
    Run refused = run("thread-refused", 3);
    events.ended(client, refused, ended(null, RunPhase.FAILED));

    assertThat(reasonsOf(failed)).containsExactly("RunFailed");
    assertThat(reasonsOf(cancelled)).containsExactly("RunCancelled");
    assertThat(reasonsOf(refused)).containsExactly("RunFailed");
  }

  @Test
  void aComputerRunRecordsItsRouteAndItsEnd() {
    Run run = run("thread-computerok", 1);
    events.routed(client, run, Route.COMPUTER);
    events.ended(client, run, ended(Route.COMPUTER, RunPhase.COMPLETED));

    assertThat(reasonsOf(run)).containsExactlyInAnyOrder("Routed", "RunSucceeded");
  }

  private static Run run(String thread, long sequence) {
    Run run =
        ThreadRuns.newRun(
            Threads.create(client, NS, thread),
            sequence,
            "Hello!",
            List.of(),
            ThreadRuns.SOURCE_API);
    return client.resource(run).create();
  }

  private static RunStatus ended(Route route, RunPhase phase) {
    RunStatus status = new RunStatus();
    status.setRoute(route == null ? null : route.value());
    status.setPhase(phase.value());
    status.setDurationMs(12L);
    return status;
  }

  private static List<String> reasonsOf(Run run) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> run.getMetadata().getName().equals(e.getInvolvedObject().getName()))
        .map(Event::getReason)
        .toList();
  }
}
