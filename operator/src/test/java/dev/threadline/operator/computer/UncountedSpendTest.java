package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.history.History;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.Runs;
import dev.threadline.operator.usage.RunUsages;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class UncountedSpendTest {
  /** USD 1000 per million tokens: a token costs a tenth of a cent. */
  private static final ModelPricing PRICING = ModelPricing.parse("priced-model=1000/1000");

  @Test
  void aRunningRunCountsItsLatestCumulativeUsageReport() {
    Run running = running("a");
    report(running, 100, 50);
    report(running, 300, 100);

    assertThat(UncountedSpend.byRun(Stream.of(running), PRICING))
        .containsExactly(Map.entry("uid-a", new BigDecimal("0.4")));
  }

  @Test
  void theRoutingCallsCostIsReadFromItsRoutingEntryInTheHistoryStore() {
    Run running = running("r");
    try (History history = History.temporary()) {
      RunEventLog log = new RunEventLog(history);
      ComputerStatus statuses = new ComputerStatus(new EventRecorder(log, 4096));
      assertThat(statuses.routingUsage(running)).isEqualTo(Usage.ZERO);
      log.append(
          running,
          running.getStatus(),
          "started",
          Instant.now(),
          Map.of(
              "route",
              "computer",
              ComputerStatus.ROUTING_USAGE,
              ComputerStatus.usageData(new Usage(200, 100, 0))));

      assertThat(statuses.routingUsage(running)).isEqualTo(new Usage(200, 100, 0));
    }
  }

  @Test
  void aFinishedRunCountsItsCostUntilItIsMarkedCounted() {
    Run finished = Runs.run(1, "hello", RunPhase.COMPLETED.value(), "hi", 10, 5, 0.25);
    finished.getMetadata().setUid("uid-f");
    Run counted = Runs.run(2, "hello", RunPhase.FAILED.value(), null, 10, 5, 0.5);
    counted.getMetadata().setUid("uid-c");
    counted.getStatus().setUsageRecorded(true);

    assertThat(UncountedSpend.byRun(Stream.of(finished, counted), PRICING))
        .containsExactly(Map.entry("uid-f", new BigDecimal("0.25")));
  }

  @Test
  void runsThatSpentNothingYetAreLeftOut() {
    Run pending = Runs.run(1, "hello", null, null, 0, 0, 0);
    pending.getMetadata().setUid("uid-p");
    Run unreported = running("u");
    Run unpriced = running("x");
    unpriced.getStatus().setModel("a-model-without-a-price");
    report(unpriced, 1000, 1000);

    assertThat(UncountedSpend.byRun(Stream.of(pending, unreported, unpriced), PRICING)).isEmpty();
  }

  @Test
  void theIndexHoldsARunExactlyWhileItMayHoldSpendTheLedgerLacks() {
    Run running = running("a");
    Run routing = running("b");
    routing.getStatus().setModel(null);
    Run finished = Runs.run(1, "hello", RunPhase.COMPLETED.value(), "hi", 10, 5, 0.25);
    Run counted = Runs.run(2, "hello", RunPhase.FAILED.value(), null, 10, 5, 0.5);
    counted.getStatus().setUsageRecorded(true);
    Run created = Runs.run(3, "hello", RunPhase.PENDING.value(), null, 0, 0, 0);
    created.setStatus(null);
    String namespace = running.getMetadata().getNamespace();

    assertThat(UncountedSpend.indexKeys(running)).containsExactly(namespace);
    assertThat(UncountedSpend.indexKeys(finished)).containsExactly(namespace);
    assertThat(UncountedSpend.indexKeys(routing)).isEmpty();
    assertThat(UncountedSpend.indexKeys(counted)).isEmpty();
    assertThat(UncountedSpend.indexKeys(created)).isEmpty();
    // What the index leaves out, the sum would not count either.
    assertThat(UncountedSpend.byRun(Stream.of(routing, counted, created), PRICING)).isEmpty();
  }

  private static Run running(String name) {
    Run run = Runs.run(1, "work", RunPhase.RUNNING.value(), null, 0, 0, 0);
    run.getMetadata().setUid("uid-" + name);
    run.getStatus().setUsage(null);
    run.getStatus().setCost(null);
    run.getStatus().setModel("priced-model");
    return run;
  }

  /** What the worker's event sink writes when a usage report (cumulative) is recorded. */
  private static void report(Run run, long inputTokens, long outputTokens) {
    run.getStatus()
        .setUsage(
            RunUsages.of(
                ComputerStatus.usage(
                    Serialization.jsonMapper()
                        .valueToTree(RunnerEventData.usage(inputTokens, outputTokens, 0)))));
  }
}
