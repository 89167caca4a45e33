package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.usage.Costs;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.RunLogs;
import dev.threadline.operator.support.StrictStatusDispatcher;
import dev.threadline.operator.worker.StandInSandbox;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

  private static final CountDownLatch slowStarted = new CountDownLatch(1);
  private static final CountDownLatch slowMayEnd = new CountDownLatch(1);
  private static StandInSandbox sandbox;
  private static KubernetesMockServer server;
  private static KubernetesClient client;
  private static ThreadlineOperator operator;

  @BeforeAll
  static void start() throws IOException {
    sandbox =
        new StandInSandbox(command -> {
          if (command.startsWith("slow")) {
            slowStarted.countDown();
            try {
              slowMayEnd.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return new StandInSandbox.CommandOutcome(0, "ran " + command + "\n");
        });
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    tenant("carol", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "0.001"));
    tenant("erin", Map.of(UsagePlans.TIER_ANNOTATION, "pro"));
    tenant("frank", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "0.001"));
    tenant("gina", Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "1000"));
    operator = startOperator();
  }

  @AfterAll
  static void stop() {
    slowMayEnd.countDown();
    operator.close();
    sandbox.close();
    client.close();
    server.destroy();
  }

  @Test
  void aComputerRunWhoseUsageCrossesTheAllowanceIsStoppedWithUsageExhausted() {
    String pod = startComputerRun("carol", "thread-costly", "Run `make everything`");

    // The model's first reply costs more than USD 0.001: the run stops before its command runs.
    Run ended =
        await()
            .atMost(WAIT)
            .until(() -> get("carol", pod), r -> r.getStatus().getCompletedAt() != null);

    assertThat(ended.getStatus().getPhase()).isEqualTo("failed");
    assertThat(ended.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(ended.getStatus().getError().getMessage())
        .isEqualTo("monthly usage allowance exhausted");
    assertThat(ended.getStatus().getUsage().getInputTokens()).isPositive();
    assertThat(ended.getStatus().getCost()).isGreaterThan(0.001);
    assertThat(RunLogs.types(operator.history(), ended)).last().isEqualTo("failed");
    assertThat(RunLogs.types(operator.history(), ended)).doesNotContain("tool_call");
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
    assertThat(ledger.getStatus().getTotalCost()).isEqualTo(ended.getStatus().getCost());
  }

  @Test
  void runsWorkingSideBySideShareTheAllowance() {
    // The first run's long message makes its replies cost more than the second run's.
    String left =
        startComputerRun(
            "gina", "thread-left", "Run `slow left`, then `echo left` " + "padding ".repeat(400));
    await().atMost(WAIT).until(() -> slowStarted.getCount() == 0);
    RunLogs.Event report =
        await()
            .atMost(WAIT)
            .until(() -> lastUsageReport(get("gina", left)), Optional::isPresent)
            .orElseThrow();
    // USD 1000 per million tokens: a tenth of a cent each.
    double spentLeft =
        (report.data().path("input_tokens").asLong() + report.data().path("output_tokens").asLong())
            * 0.001;
    // Room for a little more than the first run spent so far: the second run alone would fit.
    client
        .namespaces()
        .withName("gina")
        .edit(ns -> {
          ns.getMetadata()
              .getAnnotations()
              .put(UsagePlans.ALLOWANCE_ANNOTATION, String.valueOf(spentLeft + 0.0005));
          return ns;
        });

    String right = startComputerRun("gina", "thread-right", "Run `echo right`");
    Run stopped =
        await()
            .atMost(WAIT)
            .until(() -> get("gina", right), r -> r.getStatus().getCompletedAt() != null);
    assertThat(stopped.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(stopped.getStatus().getCost()).isLessThan(spentLeft);
    assertThat(get("gina", left).getStatus().getPhase()).isEqualTo("running");

    // The first run's next reply finds the allowance spent by both.
    slowMayEnd.countDown();
    Run alsoStopped =
        await()
            .atMost(WAIT)
            .until(() -> get("gina", left), r -> r.getStatus().getCompletedAt() != null);
    assertThat(alsoStopped.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    UsageLedger ledger =
        await()
            .atMost(WAIT)
            .until(
                () -> ledger("gina"),
                l -> l != null && l.getStatus() != null && l.getStatus().getRuns() == 2);
    assertThat(BigDecimal.valueOf(ledger.getStatus().getTotalCost()))
        .isEqualByComparingTo(
            Costs.of(alsoStopped.getStatus().getCost())
                .add(Costs.of(stopped.getStatus().getCost())));
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
    assertThat(ledger.getStatus().tokens().getInputTokens())
        .isEqualTo(done.stream().mapToLong(r -> r.getStatus().getUsage().getInputTokens()).sum());
    assertThat(ledger.getStatus().tokens().getOutputTokens())
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

  /**
   * A computer run (a task in backticks) whose sandbox Pod is ready, served by the stand-in on the
   * Pod's port.
   */
  private static String startComputerRun(String namespace, String threadName, String message) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace(namespace).build());
    thread.setSpec(new ThreadSpec());
    client.resource(thread).create();
    client.resource(run(namespace, threadName, 1, message)).create();
    String pod = threadName + "-1";
    Secret credential =
        await()
            .atMost(WAIT)
            .until(
                () -> client.secrets().inNamespace(namespace).withName(pod + "-sandbox").get(),
                Objects::nonNull);
    sandbox.credential(SandboxCredential.read(credential).orElseThrow());
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
          p.getStatus().setPodIP("127.0.0.1");
          p.getStatus()
              .setConditions(
                  List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
          return p;
        });
    return pod;
  }

  private static ThreadlineOperator startOperator() {
    Map<String, String> env = new HashMap<>(PRICED);
    int port = sandbox.address().base().getPort();
    env.put("THREADLINE_CONTAINER_PORTS", port + "-" + port);
    return ThreadlineOperator.start(
        client, OperatorSettings.fromEnvironment(env), Clock.systemUTC());
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

  private static Optional<RunLogs.Event> lastUsageReport(Run run) {
    return RunLogs.events(operator.history(), run).stream()
        .filter(event -> event.type().equals("usage"))
        .reduce((earlier, later) -> later);
  }
}
