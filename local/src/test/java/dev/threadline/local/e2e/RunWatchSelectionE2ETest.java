package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.support.Settled;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Through the local mode: the Run watch the agent worker opens ({@code status.route=computer})
 * never sees a direct run and still brings computer runs, which the worker runs to the end; the run
 * controller reconciles a direct run once.
 */
class RunWatchSelectionE2ETest {
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aComputerRunWatchSeesComputerRunsOnly() {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    try (SharedIndexInformer<Run> informer =
        fixture
            .local()
            .client()
            .resources(Run.class)
            .inAnyNamespace()
            .withField("status.route", "computer")
            .inform(recordingInto(seen))) {
      String direct = fixture.runToTheEnd("Hello!");
      String computer = fixture.runToTheEnd("Run `echo hello`");

      await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(computer));
      assertThat(seen).doesNotContain(direct);
      assertThat(informer.getStore().list())
          .extracting(run -> run.getStatus().getPhase())
          .containsOnly("completed");
    }
  }

  @Test
  void theRunControllerReconcilesADirectRunOnce() {
    fixture.runToTheEnd("Hello!"); // the controller's meters appear with its first reconcile
    long before = Settled.count(RunWatchSelectionE2ETest::runReconciles);

    fixture.runToTheEnd("Hello!");

    assertThat(Settled.count(RunWatchSelectionE2ETest::runReconciles))
        .as("its creation only: not its own terminal write, the usage and webhook marks")
        .isEqualTo(before + 1);
  }

  /** The run controller's finished reconciles, from the operator's Prometheus scrape. */
  private static long runReconciles() {
    return fixture
        .scrape(fixture.local().operatorMetricsUrl())
        .lines()
        .filter(line ->
            line.startsWith("operator_sdk_controllers_execution_reconcile_seconds_count{")
                && line.contains("controller=\"run\""))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** Records the name of every Run the informer is told of, whatever the event. */
  private static ResourceEventHandler<Run> recordingInto(Set<String> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Run run) {
        seen.add(run.getMetadata().getName());
      }

      @Override
      public void onUpdate(Run before, Run run) {
        seen.add(run.getMetadata().getName());
      }

      @Override
      public void onDelete(Run run, boolean unknownFinalState) {
        seen.add(run.getMetadata().getName());
      }
    };
  }
}
