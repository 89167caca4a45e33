package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Through the local mode: the Run watch the agent worker opens ({@code status.route=computer})
 * never sees a direct run and still brings computer runs, which the worker runs to the end; the run
 * controller reconciles a direct run once.
 */
class RunWatchSelectionE2ETest {
  private static LocalModeFixture fixture;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

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
    double before = awaitSettled(RunWatchSelectionE2ETest::runReconciles);

    fixture.runToTheEnd("Hello!");

    assertThat(awaitSettled(RunWatchSelectionE2ETest::runReconciles))
        .as("its creation only: not its own terminal write, the usage and webhook marks")
        .isEqualTo(before + 1);
  }

  /** The value once it has not changed for two seconds (the marks after a run take a moment). */
  private static double awaitSettled(Supplier<Double> value) {
    double[] last = {value.get()};
    await()
        .pollInterval(Duration.ofMillis(250))
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(30))
        .until(() -> {
          double now = value.get();
          boolean unchanged = now == last[0];
          last[0] = now;
          return unchanged;
        });
    return last[0];
  }

  /** The run controller's finished reconciles, from the operator's Prometheus scrape. */
  private static double runReconciles() {
    return fixture
        .scrape(fixture.local().operatorMetricsUrl())
        .lines()
        .filter(line ->
            line.startsWith("operator_sdk_controllers_execution_reconcile_seconds_count{")
                && line.contains("controller=\"run\""))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  private static ResourceEventHandler<Run> recordingInto(Set<String> seen) {
    Function<Run, Boolean> record = run -> seen.add(run.getMetadata().getName());
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Run run) {
        record.apply(run);
      }

      @Override
      public void onUpdate(Run before, Run run) {
        record.apply(run);
      }

      @Override
      public void onDelete(Run run, boolean unknownFinalState) {
        record.apply(run);
      }
    };
  }
}
