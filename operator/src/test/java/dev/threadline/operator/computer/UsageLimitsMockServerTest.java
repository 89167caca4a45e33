package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.usage.Costs;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.StrictStatusDispatcher;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Usage against the operator as a whole, on a mock that refuses stale status writes: finished runs
 * land in their user's monthly ledger exactly once, a computer run whose reported usage crosses the
 * allowance is stopped with {@code usage_exhausted}, and a new operator reads the month's usage
 * back and refuses runs once it is spent.
 */
class UsageLimitsMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** USD 1000 per million tokens: one token costs a tenth of a cent. */
  private static final Map<String, String> PRICED =
      Map.of(
          "THREADLINE_WATCH_NAMESPACES",
          "carol,erin,frank,gina",
          "THREADLINE_MODEL_NAME",
          "priced-model",
          "THREADLINE_MODEL_PRICES",
          "priced-model=1000/1000",
          UsagePlans.TIERS_VARIABLE,
          "free=1,pro=1000",
          UsagePlans.DEFAULT_TIER_VARIABLE,
          "free");

  private static final ScriptedPodLogs logs = new ScriptedPodLogs();
  private static KubernetesMockServer server;
  private static KubernetesClient client;
  private static ThreadlineOperator operator;

  @BeforeAll
  static void start() {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    tenant("carol", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "0.5"));
    tenant("erin", Map.of(UsagePlans.TIER_ANNOTATION, "pro"));
    tenant("frank", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "0.001"));
    tenant("gina", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "1"));
    operator = startOperator();
  }

  @AfterAll
  static void stop() {
    operator.close();
    client.close();
    server.destroy();
  }

  @Test
  void aComputerRunWhoseUsageCrossesTheAllowanceIsStoppedWithUsageExhausted() {
    ScriptedPodLogs.PodLog log = startComputerRun("carol", "thread-costly");
    String pod = "thread-costly-1";
    log.emit(RunnerEventType.USAGE, RunnerEventData.usage(300, 100, 0)); // USD 0.40 of 0.50
    await().atMost(WAIT).until(() -> types(get("carol", pod)).contains("usage"));
    assertThat(get("carol", pod).getStatus().getPhase()).isEqualTo("running");

    log.emit(RunnerEventType.USAGE, RunnerEventData.usage(600, 200, 0)); // USD 0.80: over
    Run ended =
        await()
            .atMost(WAIT)
            .until(() -> get("carol", pod), r -> r.getStatus().getCompletedAt() != null);

    assertThat(ended.getStatus().getPhase()).isEqualTo("failed");
    assertThat(ended.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(ended.getStatus().getError().getMessage())
        .isEqualTo("monthly usage allowance exhausted");
    assertThat(ended.getStatus().getUsage().getInputTokens()).isEqualTo(600L);
    assertThat(ended.getStatus().getCost()).isEqualTo(0.8);
    assertThat(ended.getStatus().getEvents())
        .extracting(RunEvent::getType)
        .last()
        .isEqualTo("failed");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace("carol").withName(pod).get() == null);
    // And what it spent is the user's.
    UsageLedger ledger =
        await()
            .atMost(WAIT)
            .until(
                () -> ledger("carol"),
                l -> l != null && l.getStatus() != null && l.getStatus().getRuns() == 1);
    assertThat(ledger.getStatus().getTotalCost()).isEqualTo(0.8);
  }

  @Test
  void runsWorkingSideBySideShareTheAllowance() {
    ScriptedPodLogs.PodLog first = startComputerRun("gina", "thread-left");
    ScriptedPodLogs.PodLog second = startComputerRun("gina", "thread-right");
    first.emit(RunnerEventType.USAGE, RunnerEventData.usage(400, 200, 0)); // USD 0.60 of 1
    await().atMost(WAIT).until(() -> types(get("gina", "thread-left-1")).contains("usage"));

    // Alone, USD 0.50 would fit; with the other run's 0.60 so far it does not.
    second.emit(RunnerEventType.USAGE, RunnerEventData.usage(300, 200, 0));
    Run stopped =
        await()
            .atMost(WAIT)
            .until(
                () -> get("gina", "thread-right-1"), r -> r.getStatus().getCompletedAt() != null);
    assertThat(stopped.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(stopped.getStatus().getCost()).isEqualTo(0.5);
    assertThat(get("gina", "thread-left-1").getStatus().getPhase()).isEqualTo("running");

    // The first run's next report finds the allowance spent by both.
    first.emit(RunnerEventType.USAGE, RunnerEventData.usage(450, 200, 0)); // USD 0.65 + 0.50
    Run alsoStopped =
        await()
            .atMost(WAIT)
            .until(() -> get("gina", "thread-left-1"), r -> r.getStatus().getCompletedAt() != null);
    assertThat(alsoStopped.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    UsageLedger ledger =
        await()
            .atMost(WAIT)
            .until(
                () -> ledger("gina"),
                l -> l != null && l.getStatus() != null && l.getStatus().getRuns() == 2);
    assertThat(ledger.getStatus().getTotalCost()).isEqualTo(1.15);
  }

  @Test
  void fiftyRunsFinishingTogetherAreCountedExactlyOnceEach() {
    List<Run> created =
        IntStream.rangeClosed(1, 50)
            .mapToObj(i -> run("erin", "thread-many-" + i, 1, "hello number " + i))
            .parallel()
            .map(run -> client.resource(run).create())
            .toList();

    await()
        .atMost(WAIT)
        .until(() ->
            runs("erin").stream()
                .allMatch(r ->
                    r.getStatus() != null
                        && Boolean.TRUE.equals(r.getStatus().getUsageRecorded())));
    List<Run> done = runs("erin");
    assertThat(done)
        .hasSize(created.size())
        .allSatisfy(r -> assertThat(r.getStatus().getPhase()).isEqualTo("completed"));
    UsageLedger ledger = ledger("erin");
    assertThat(ledger.getSpec().getUserId()).isEqualTo("user-erin");
    assertThat(ledger.getStatus().getRuns()).isEqualTo(50L);
    assertThat(ledger.getStatus().getInputTokens())
        .isEqualTo(done.stream().mapToLong(r -> r.getStatus().getUsage().getInputTokens()).sum());
    assertThat(ledger.getStatus().getOutputTokens())
        .isEqualTo(done.stream().mapToLong(r -> r.getStatus().getUsage().getOutputTokens()).sum());
    BigDecimal expected =
        done.stream()
            .map(r -> Costs.of(r.getStatus().getCost()))
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    assertThat(expected).isPositive();
    assertThat(BigDecimal.valueOf(ledger.getStatus().getTotalCost()))
        .isEqualByComparingTo(expected);
  }

  @Test
  void aRestartedOperatorKeepsTheMonthsUsageAndRefusesRunsOnceItIsSpent() {
    client.resource(run("frank", "thread-first", 1, "hello there")).create();
    await()
        .atMost(WAIT)
        .until(
            () -> ledger("frank"),
            l -> l != null && l.getStatus() != null && l.getStatus().getRuns() == 1);
    double spent = ledger("frank").getStatus().getTotalCost();
    assertThat(spent).isGreaterThanOrEqualTo(0.001);

    operator.close();
    operator = startOperator();
    client.resource(run("frank", "thread-second", 1, "hello again")).create();
    Run refused =
        await()
            .atMost(WAIT)
            .until(
                () -> get("frank", "thread-second-1"),
                r -> r != null && r.getStatus() != null && r.getStatus().getCompletedAt() != null);

    assertThat(refused.getStatus().getPhase()).isEqualTo("failed");
    assertThat(refused.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(refused.getStatus().getRoute()).isNull();
    await().atMost(WAIT).until(() -> ledger("frank").getStatus().getRuns() == 2);
    // The first run was not counted again by the new operator.
    assertThat(ledger("frank").getStatus().getTotalCost()).isEqualTo(spent);
  }

  /** A computer run (a task in backticks) whose agent Pod runs and whose runner has started. */
  private static ScriptedPodLogs.PodLog startComputerRun(String namespace, String threadName) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace(namespace).build());
    thread.setSpec(new ThreadSpec());
    client.resource(thread).create();
    client.resource(run(namespace, threadName, 1, "Run `make everything`")).create();
    String pod = threadName + "-1";
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(namespace).withName(pod).get() != null);
    client
        .pods()
        .inNamespace(namespace)
        .withName(pod)
        .editStatus(p -> {
          p.setStatus(new PodStatus());
          p.getStatus().setPhase("Running");
          return p;
        });
    ScriptedPodLogs.PodLog log = logs.log(namespace, pod);
    log.emit(
        RunnerEventType.STARTED,
        RunnerEventData.started("run_" + threadName, "priced-model", "/workspace"));
    return log;
  }

  private static ThreadlineOperator startOperator() {
    return ThreadlineOperator.start(
        client, OperatorSettings.fromEnvironment(PRICED), Clock.systemUTC(), logs);
  }

  private static void tenant(String name, Map<String, String> annotations) {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(Labels.TENANT, "true")
                .addToAnnotations(Labels.USER_ANNOTATION, "user-" + name)
                .addToAnnotations(annotations)
                .endMetadata()
                .build())
        .create();
  }

  private static Run run(String namespace, String thread, long sequence, String message) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName(thread + "-" + sequence)
            .withNamespace(namespace)
            .addToLabels(Labels.THREAD, thread)
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread(thread);
    spec.setSequence(sequence);
    spec.setMessage(message);
    spec.setSource("api");
    run.setSpec(spec);
    return run;
  }

  private static Run get(String namespace, String name) {
    return client.resources(Run.class).inNamespace(namespace).withName(name).get();
  }

  private static List<Run> runs(String namespace) {
    return client.resources(Run.class).inNamespace(namespace).list().getItems();
  }

  private static UsageLedger ledger(String namespace) {
    return client
        .resources(UsageLedger.class)
        .inNamespace(namespace)
        .withName(UsagePeriod.of(Clock.systemUTC().instant()).ledgerName())
        .get();
  }

  private static List<String> types(Run run) {
    return run == null || run.getStatus() == null || run.getStatus().getEvents() == null
        ? List.of()
        : run.getStatus().getEvents().stream().map(RunEvent::getType).toList();
  }
}
