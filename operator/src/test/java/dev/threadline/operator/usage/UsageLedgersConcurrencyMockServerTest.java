package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.crds.usage.UsageEntry;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.StrictStatusDispatcher;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Many runs of one user end at the same moment: each is added to the month's ledger by its own
 * thread, twice (as a redelivered event or a restarted operator would), against a mock that refuses
 * stale status writes. The totals must be exact: nothing lost, nothing doubled; and the runs are
 * written together, in a few ledger writes rather than one (or more, after conflicts) each.
 */
class UsageLedgersConcurrencyMockServerTest {
  private static final String NS = "dora";
  private static final UsagePeriod PERIOD = new UsagePeriod(YearMonth.of(2026, 11));
  private static KubernetesMockServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.destroy();
  }

  @Test
  void fiftyRunsEndingAtOnceAreEachCountedExactlyOnce() throws Exception {
    UsageLedgers ledgers = new UsageLedgers(client);
    int runs = 50;
    List<Callable<UsageLedger>> additions = new ArrayList<>();
    CountDownLatch together = new CountDownLatch(1);
    for (int i = 1; i <= runs; i++) {
      String uid = "uid-" + i;
      // Costs with many decimals, so that a lost or doubled run cannot hide in rounding; each one a
      // decimal as a run's cost is (i * 0.000123 in doubles is not, and its sum depends on the
      // order).
      double cost = new BigDecimal("0.000123").multiply(BigDecimal.valueOf(i)).doubleValue();
      UsageEntry entry = new UsageEntry("run-" + i, new TokenCounts(100 + i, 10 + i, i), cost);
      for (int copy = 0; copy < 2; copy++) {
        additions.add(() -> {
          together.await();
          return ledgers.add(NS, "dora", PERIOD, uid, entry, (pendingUid, name) -> false);
        });
      }
    }
    int requestsBefore = server.getRequestCount();
    ExecutorService pool = Executors.newFixedThreadPool(additions.size());
    try {
      List<Future<UsageLedger>> results = new ArrayList<>();
      additions.forEach(addition -> results.add(pool.submit(addition)));
      together.countDown();
      for (Future<UsageLedger> done : results) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }

    // Written together: one GET and one status write per batch (and the ledger's creation), far
    // fewer requests than additions — one each, conflicting, would be two or more per addition.
    assertThat(server.getRequestCount() - requestsBefore).isLessThan(additions.size() / 2);

    UsageLedger ledger = ledgers.get(NS, PERIOD).orElseThrow();
    assertThat(ledger.getSpec().getPeriod()).isEqualTo("2026-11");
    assertThat(ledger.getSpec().getUserId()).isEqualTo("dora");
    assertThat(ledger.getStatus().getRuns()).isEqualTo(runs);
    assertThat(ledger.getStatus().getPending()).hasSize(runs);
    long n = runs * (runs + 1L) / 2;
    assertThat(ledger.getStatus().tokens().getInputTokens()).isEqualTo(100L * runs + n);
    assertThat(ledger.getStatus().tokens().getOutputTokens()).isEqualTo(10L * runs + n);
    assertThat(ledger.getStatus().tokens().getCachedTokens()).isEqualTo(n);
    assertThat(BigDecimal.valueOf(ledger.getStatus().getTotalCost()))
        .isEqualByComparingTo(new BigDecimal("0.000123").multiply(BigDecimal.valueOf(n)));
  }

  @Test
  void settledRunsLeaveThePendingListButKeepTheirFigures() {
    UsageLedgers ledgers = new UsageLedgers(client);
    UsagePeriod period = new UsagePeriod(YearMonth.of(2026, 12));
    ledgers.add(
        NS,
        "dora",
        period,
        "uid-a",
        new UsageEntry("run-a", new TokenCounts(5, 1, 0), 0.5),
        (uid, name) -> false);
    UsageLedger after =
        ledgers.add(
            NS,
            "dora",
            period,
            "uid-b",
            new UsageEntry("run-b", new TokenCounts(7, 2, 0), 0.25),
            (uid, name) -> name.equals("run-a"));

    assertThat(after.getStatus().getPending()).containsOnlyKeys("uid-b");
    assertThat(after.getStatus().getRuns()).isEqualTo(2L);
    assertThat(after.getStatus().tokens().getInputTokens()).isEqualTo(12L);
    assertThat(after.getStatus().getTotalCost()).isEqualTo(0.75);
  }

  /**
   * The allowance check reads the cached ledger: right after a run is counted (and before its Run
   * is marked) it must show that run, whether or not the informer has delivered the write yet; a
   * write from elsewhere (another process) reaches it through the informer.
   */
  @Test
  void theCachedLedgerIsNeverOlderThanThisProcessesWrites() {
    try (UsageLedgers ledgers = new UsageLedgers(client, Set.of(NS))) {
      seesItsOwnWritesAtOnce(ledgers);
    }
  }

  private static void seesItsOwnWritesAtOnce(UsageLedgers ledgers) {
    UsagePeriod period = new UsagePeriod(YearMonth.of(2027, 1));
    for (int i = 1; i <= 20; i++) {
      UsageLedger written =
          ledgers.add(
              NS,
              "dora",
              period,
              "uid-" + i,
              new UsageEntry("run-" + i, new TokenCounts(1, 1, 0), 0.01),
              (uid, name) -> false);
      UsageLedger cached = ledgers.cached(NS, period).orElseThrow();
      assertThat(cached.getStatus().getRuns()).as("after run %d", i).isEqualTo(i);
      assertThat(cached.getMetadata().getResourceVersion())
          .isEqualTo(written.getMetadata().getResourceVersion());
    }
    try (UsageLedgers elsewhere = new UsageLedgers(client, Set.of(NS))) {
      elsewhere.add(
          NS,
          "dora",
          period,
          "uid-elsewhere",
          new UsageEntry("run-elsewhere", new TokenCounts(1, 1, 0), 0.01),
          (uid, name) -> false);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ledgers.cached(NS, period).orElseThrow().getStatus().getRuns() == 21L);
  }
}
