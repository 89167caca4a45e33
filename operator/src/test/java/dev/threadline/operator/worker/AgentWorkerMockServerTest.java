package dev.threadline.operator.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.routing.Route;
import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.crds.agent.ApprovalRule;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import dev.threadline.history.History;
import dev.threadline.history.StoredAnswer;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.scripted.ScriptedModelProvider;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.computer.SandboxCondition;
import dev.threadline.operator.computer.SandboxHandOff;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.metrics.StartSteps;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.StrictStatusDispatcher;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.worker.mcp.EchoSandbox;
import dev.threadline.operator.worker.mcp.LoopbackHttpMcpServer;
import dev.threadline.operator.worker.mcp.McpServerPlan;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker against fabric8's CRUD mock (stale writes refused) with a scripted model and an
 * in-process stand-in sandbox: a run's loop records its events, result and usage in the Run; two
 * workers share the runs; a worker stopped mid-run loses the run to the other, which completes it
 * without executing the call in flight a second time.
 */
class AgentWorkerMockServerTest {
  private static final String NS = "erin";

  private KubernetesMockServer server;
  private KubernetesClient client;
  private History history;

  /** One sandbox per run, as in a cluster. */
  private final Map<String, StandInSandbox> sandboxes = new ConcurrentHashMap<>();

  private final List<AgentWorker> workers = new ArrayList<>();
  private final CountDownLatch slowMayEnd = new CountDownLatch(1);
  private final Map<String, CountDownLatch> slowStarted = new ConcurrentHashMap<>();

  /** The workers' start steps ({@link StartSteps}): how often each was taken. */
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** The agent's approval policy in the runs' tasks; none unless a test sets one. */
  private ApprovalPolicy approvals;

  /** How often a run's task was read: once per start of its loop. */
  private final AtomicInteger taskReads = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    history = History.temporary();
  }

  private StandInSandbox sandbox(Run run) {
    return sandboxes.computeIfAbsent(run.getMetadata().getName(), name -> newSandbox());
  }

  private int executions() {
    return sandboxes.values().stream().mapToInt(StandInSandbox::executions).sum();
  }

  private StandInSandbox newSandbox() {
    try {
      return new StandInSandbox(command -> {
        if (command.startsWith("slow")) {
          slowStarted.computeIfAbsent(command, c -> new CountDownLatch(1)).countDown();
          try {
            slowMayEnd.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return new StandInSandbox.CommandOutcome(0, "ran " + command + "\n");
      });
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void stop() {
    slowMayEnd.countDown();
    workers.forEach(AgentWorker::close);
    sandboxes.values().forEach(StandInSandbox::close);
    client.close();
    server.destroy();
    history.close();
  }

  @Test
  void aRunsLoopRecordsItsEventsResultAndUsageInTheRun() {
    worker("worker-a");
    create("run-1", "Run `echo one`, then `echo two`");

    Run done = awaitEnded("run-1");

    RunStatus status = done.getStatus();
    assertThat(status.getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(types(done))
        .containsSubsequence(
            "started",
            "planning",
            "reasoning",
            "usage",
            "tool_call",
            "tool_call",
            "message",
            "result");
    assertThat(status.getResponse()).contains("echo one").contains("echo two");
    assertThat(status.getActions())
        .containsExactly("ran `echo one` (exit 0)", "ran `echo two` (exit 0)");
    assertThat(status.getUsage().getInputTokens()).isPositive();
    Event firstCall =
        events(done).stream().filter(e -> e.type().equals("tool_call")).findFirst().orElseThrow();
    assertThat(firstCall.data().path("id").asText()).isEqualTo("tool_1");
    assertThat(firstCall.data().path("tool").path("output").asText()).isEqualTo("ran echo one\n");
    assertThat(executions()).isEqualTo(2);
    await() // the claim is given up once the outcome is written
        .atMost(Duration.ofSeconds(5))
        .until(() -> !get("run-1").getMetadata().getAnnotations().containsKey(RunClaims.HOLDER));
  }

  @Test
  void twoWorkersSplitTheRunsAndAStoppedOnesRunCompletesOnTheOtherWithoutRunningACallTwice()
      throws Exception {
    AgentWorker a = worker("worker-a");
    AgentWorker b = worker("worker-b");
    for (int i = 1; i <= 4; i++) {
      create("run-" + i, "Run `slow " + i + "`, then `echo after " + i + "`");
      int started = i;
      await().atMost(Duration.ofSeconds(10)).until(() -> slowStarted.size() == started);
    }
    assertThat(a.working()).isPositive();
    assertThat(b.working()).isPositive();
    assertThat(a.working() + b.working()).isEqualTo(4);

    // worker-a stops while its runs' first calls run in the sandbox; then the calls finish.
    List<String> aRuns = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      if (a.isWorkingOn(get("run-" + i))) {
        aRuns.add("run-" + i);
      }
    }
    a.close();
    slowMayEnd.countDown();

    for (int i = 1; i <= 4; i++) {
      Run done = awaitEnded("run-" + i);
      assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
      assertThat(done.getStatus().getActions())
          .containsExactly("ran `slow " + i + "` (exit 0)", "ran `echo after " + i + "` (exit 0)");
      assertThat(types(done).stream().filter("tool_call"::equals)).hasSize(2);
    }
    assertThat(aRuns).isNotEmpty();
    assertThat(executions()).isEqualTo(8); // every command once, none twice
  }

  @Test
  void aRunWaitingForAnApprovalWhenItsWorkerStopsIsCompletedByTheOtherOnceAnswered() {
    approvals = new ApprovalPolicy();
    approvals.setCommands(List.of(new ApprovalRule("git push*", ApprovalPolicy.ASK)));
    AgentWorker a = worker("worker-a");
    create("run-1", "Run `echo before`, then `git push origin main`, then `echo after`");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> get("run-1").getStatus().getWaitingFor() != null);
    RunWait wait = get("run-1").getStatus().getWaitingFor();
    assertThat(wait.getKind()).isEqualTo(RunWait.APPROVAL);
    assertThat(wait.getCallId()).isEqualTo("call_1_2");
    assertThat(executions()).isEqualTo(1); // the command before it ran; the push waits

    a.close();
    worker("worker-b");
    await() // the other replica takes the run over once the stopped one's claim expires
        .atMost(Duration.ofSeconds(10))
        .until(() -> claimHolder("run-1").filter("worker-b"::equals).isPresent());
    await()
        .pollDelay(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(5))
        .until(() -> get("run-1").getStatus().getWaitingFor() != null);
    assertThat(get("run-1").getStatus().getWaitingFor().getSince()).isEqualTo(wait.getSince());
    assertThat(executions()).isEqualTo(1);

    // the answer, as the api-server writes it: its texts in the store, then named in the spec
    Run waiting = get("run-1");
    String answeredAt = Timestamps.format(Clock.systemUTC().instant());
    history
        .answers()
        .record(
            RunEventLog.key(waiting),
            new StoredAnswer("run-1", wait.getCallId(), RunAnswer.APPROVE, null, null, answeredAt),
            RunSpec.MAX_ANSWERS);
    waiting.getSpec().setAnswer(new RunAnswer(wait.getCallId(), RunAnswer.APPROVE, answeredAt));
    client.resource(waiting).update();

    Run done = awaitEnded("run-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(done.getStatus().getWaitingFor()).isNull();
    assertThat(done.getStatus().getActions())
        .containsExactly(
            "ran `echo before` (exit 0)",
            "ran `git push origin main` (exit 0)",
            "ran `echo after` (exit 0)");
    assertThat(types(done).stream().filter("approval_requested"::equals)).hasSize(1);
    assertThat(executions()).isEqualTo(3); // every command once, the approved one too
    assertThat(meters.find("threadline_run_input_wait_duration").timer().count()).isEqualTo(1);
  }

  @Test
  void aWorkerAtItsLoopLimitClaimsTheNextRunOnlyOnceALoopHasEnded() {
    AgentWorker one =
        worker(
            WorkerSettings.of("worker-a", Duration.ofMillis(1500), NS).withMaxLoops(1),
            Allowance.UNLIMITED,
            List.of(),
            ScriptedModelProvider::new,
            run -> Optional.of(sandbox(run).address()));
    create("run-1", "Run `slow 1`");
    await().atMost(Duration.ofSeconds(10)).until(() -> slowStarted.size() == 1);
    create("run-2", "Run `slow 2`");

    // Three renewals (every 500 ms) look at run-2 and leave it while run-1's loop runs.
    await()
        .during(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> one.working() == 1 && slowStarted.size() == 1);
    assertThat(get("run-2").getMetadata().getAnnotations()).doesNotContainKey(RunClaims.HOLDER);
    slowMayEnd.countDown();

    assertThat(awaitEnded("run-1").getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(awaitEnded("run-2").getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
  }

  @Test
  void aRunWhoseSandboxFailedUnderADeadReplicasClaimIsEndedByAnotherOnceTheClaimExpires() {
    create("run-1", "Run `echo one`");
    // A replica that stopped holds the run: its claim is never renewed, and expires.
    Instant expires = Instant.now().plusSeconds(3);
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-1")
        .edit(run -> {
          run.getMetadata()
              .setAnnotations(
                  Map.of(RunClaims.HOLDER, "worker-gone", RunClaims.EXPIRES, expires.toString()));
          return run;
        });
    // The computer path's report, as it writes it: the sandbox, not the run's outcome.
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-1")
        .editStatus(run -> {
          run.getStatus()
              .setConditions(
                  List.of(
                      new ConditionBuilder()
                          .withType(SandboxCondition.TYPE)
                          .withStatus("False")
                          .withReason("ExecutionFailed")
                          .withMessage("The agent Pod was deleted before the run ended")
                          .build()));
          return run;
        });
    worker("worker-a");

    Run done = awaitEnded("run-1");

    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage())
        .isEqualTo("The agent Pod was deleted before the run ended");
    assertThat(types(done)).containsExactly("failed");
    // Not while the stopped replica's claim was live: that replica would have ended it.
    assertThat(Timestamps.parse(done.getStatus().getCompletedAt()).orElseThrow())
        .isAfterOrEqualTo(expires.truncatedTo(ChronoUnit.SECONDS));
    assertThat(executions()).isZero();
  }

  @Test
  void aHandedOverRunIsClaimedAndStartedOnceThoughItsWatchEventsComeBeforeTheHandOff() {
    AgentWorker worker = worker("worker-a");
    Run created = createUnrouted("run-1", "Run `echo one`");
    // As the operator does: the hand-off announced, then the route and the claimed sandbox
    // written; the write's watch event, the Pod's and the renewal's look at every run reach the
    // worker before the write's answer reaches the operator.
    SandboxHandOff.Pending pending = worker.expectHandOff(created);
    Run written = route(created);
    await() // past two renewals' looks for runs to claim: none claimed it
        .pollDelay(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(2))
        .until(() -> steps("run-claim") == 0 && claimHolder("run-1").isEmpty());

    pending.handOver(written, new Pod(), Optional.empty());
    pending.close();

    Run done = awaitEnded("run-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(types(done).stream().filter("started"::equals)).hasSize(1);
    assertThat(taskReads).hasValue(1);
    assertThat(steps("run-claim")).isEqualTo(1);
    assertThat(steps("task")).isEqualTo(1);
    assertThat(executions()).isEqualTo(1);
  }

  @Test
  void aHandOffCalledOffLeavesTheRunToItsWatchAndTheRenewal() {
    AgentWorker worker = worker("worker-a");
    Run created = createUnrouted("run-1", "Run `echo one`");
    try (SandboxHandOff.Pending pending = worker.expectHandOff(created)) {
      route(created); // as written by another replica's operator, say: no hand-over here
    }

    Run done = awaitEnded("run-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(taskReads).hasValue(1);
    assertThat(steps("task")).isEqualTo(1);
  }

  private Optional<String> claimHolder(String run) {
    Map<String, String> annotations = get(run).getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(RunClaims.HOLDER));
  }

  private long steps(String step) {
    var timer = meters.find("threadline_sandbox_start_step_duration").tag("step", step).timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void aRunWhoseUserHasSpentTheAllowanceStopsAfterTheReplyThatSpentIt() {
    worker("worker-a", (run, total, others) -> total.outputTokens() > 0);
    create("run-1", "Run `echo one`");

    Run done = awaitEnded("run-1");

    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("usage_exhausted");
    assertThat(done.getStatus().getUsage().getOutputTokens()).isPositive();
    assertThat(executions()).isZero();
  }

  @Test
  void anHttpMcpServersToolIsCalledByTheWorkerAndRecordedAsAToolCall() throws Exception {
    try (LoopbackHttpMcpServer mcp = new LoopbackHttpMcpServer()) {
      McpServerPlan shout =
          new McpServerPlan(
              "shout", McpServerPlan.HTTP, null, List.of(), mcp.url(), "mcp-token", 10, 10);
      worker(
          WorkerSettings.of("worker-a", Duration.ofMillis(1500), NS).allowPrivateMcpTargets(true),
          Allowance.UNLIMITED,
          List.of(shout),
          () -> new OneToolCallModel("mcp__shout__shout", Map.of("text", "hello")),
          run -> Optional.of(sandbox(run).address()));
      create("run-1", "Shout hello");

      Run done = awaitEnded("run-1");

      assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
      assertThat(done.getStatus().getResponse()).isEqualTo("The tool said: HELLO");
      Event call = onlyToolCall(done);
      assertThat(call.data().path("tool").path("type").asText()).isEqualTo("mcp_tool");
      assertThat(call.data().path("tool").path("name").asText()).isEqualTo("mcp__shout__shout");
      assertThat(call.data().path("tool").path("output").asText()).isEqualTo("HELLO");
      assertThat(mcp.authorizations).isNotEmpty().allMatch("Bearer mcp-token"::equals);
      assertThat(events(done))
          .anyMatch(e ->
              e.type().equals("setup") && e.data().toString().contains("Started MCP server shout"));
      assertThat(executions()).isZero(); // nothing of it ran in the sandbox
    }
  }

  @Test
  void anHttpMcpServerOnAPrivateAddressIsRefusedAndTheRunGoesOnWithoutIt() throws Exception {
    try (LoopbackHttpMcpServer mcp = new LoopbackHttpMcpServer()) {
      McpServerPlan shout =
          new McpServerPlan(
              "shout", McpServerPlan.HTTP, null, List.of(), mcp.url(), "mcp-token", 10, 10);
      worker(
          WorkerSettings.of("worker-a", Duration.ofMillis(1500), NS),
          Allowance.UNLIMITED,
          List.of(shout),
          () -> new OneToolCallModel("mcp__shout__shout", Map.of("text", "hello")),
          run -> Optional.of(sandbox(run).address()));
      create("run-1", "Shout hello");

      Run done = awaitEnded("run-1");

      assertThat(done.getStatus().getResponse()).isEqualTo("I have no tool mcp__shout__shout");
      assertThat(events(done))
          .anyMatch(e ->
              e.type().equals("error") && e.data().toString().contains("is a loopback address"));
      assertThat(mcp.authorizations).isEmpty();
    }
  }

  @Test
  void aStdioMcpServerRunsInTheRealSandboxThroughItsPipes(@TempDir Path dir) throws Exception {
    try (EchoSandbox sandbox = new EchoSandbox(dir)) {
      worker(
          WorkerSettings.of("worker-a", Duration.ofMillis(1500), NS),
          Allowance.UNLIMITED,
          List.of(EchoSandbox.echoServer()),
          () -> new OneToolCallModel("mcp__echo__echo", Map.of("text", "piped")),
          run -> Optional.of(sandbox.address()));
      create("run-1", "Echo piped");

      Run done = awaitEnded("run-1");

      assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
      assertThat(done.getStatus().getResponse()).isEqualTo("The tool said: echo: piped");
      assertThat(onlyToolCall(done).data().path("tool").path("output").asText())
          .isEqualTo("echo: piped");
    }
  }

  private Event onlyToolCall(Run run) {
    List<Event> calls = events(run).stream().filter(e -> e.type().equals("tool_call")).toList();
    assertThat(calls).hasSize(1);
    return calls.get(0);
  }

  private AgentWorker worker(String name) {
    return worker(name, Allowance.UNLIMITED);
  }

  private AgentWorker worker(String name, Allowance allowance) {
    return worker(
        WorkerSettings.of(name, Duration.ofMillis(1500), NS),
        allowance,
        List.of(),
        ScriptedModelProvider::new,
        run -> Optional.of(sandbox(run).address()));
  }

  private AgentWorker worker(
      WorkerSettings settings,
      Allowance allowance,
      List<McpServerPlan> mcpServers,
      Supplier<ModelProvider> model,
      SandboxLocator sandboxes) {
    RunTasks tasks =
        run -> {
          taskReads.incrementAndGet();
          return new RunTask(
              "scripted",
              "scripted",
              "You are a test agent.",
              List.of(ChatMessage.user(run.getSpec().getMessage())),
              "I will run the commands.",
              List.of(),
              RunTask.Limits.DEFAULT,
              mcpServers,
              approvals);
        };
    WorkerModels models =
        new WorkerModels() {
          @Override
          public ModelProvider open(RunTask task) {
            return model.get();
          }

          @Override
          public String redact(String message) {
            return message;
          }
        };
    AgentWorker worker =
        new AgentWorker(
                client,
                settings,
                tasks,
                models,
                sandboxes,
                new SandboxClient(),
                ModelPricing.none(),
                allowance,
                DeltaHub.off(),
                Clock.systemUTC(),
                AgentTracing.off(),
                new StartSteps(new OperatorMetrics(meters)),
                new ComputerStatus(new EventRecorder(new RunEventLog(history), 1 << 20)),
                new OperatorMetrics(meters))
            .start();
    workers.add(worker);
    return worker;
  }

  private void create(String name, String message) {
    route(createUnrouted(name, message));
  }

  private Run createUnrouted(String name, String message) {
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    RunSpec spec = new RunSpec();
    spec.setThread("t");
    spec.setSequence(1L);
    spec.setMessage(message);
    spec.setAgent("default");
    run.setSpec(spec);
    return client.resource(run).create();
  }

  /** Routed to the computer, running: as the operator's routing writes it. */
  private Run route(Run created) {
    RunStatus status = new RunStatus();
    status.setRoute(Route.COMPUTER.value());
    status.setPhase(RunPhase.RUNNING.value());
    status.setModel("scripted");
    status.setStartedAt(Timestamps.format(Clock.systemUTC().instant()));
    created.setStatus(status);
    return client.resource(created).updateStatus();
  }

  private Run get(String name) {
    return client.resources(Run.class).inNamespace(NS).withName(name).get();
  }

  private Run awaitEnded(String name) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> RunStatusUpdates.ended(get(name).getStatus()));
    return get(name);
  }

  private List<String> types(Run run) {
    return events(run).stream().map(Event::type).toList();
  }

  /** An event of a run's log in the history store, its data parsed. */
  private record Event(String type, JsonNode data) {}

  private List<Event> events(Run run) {
    return history.events().all(RunEventLog.key(run)).stream()
        .map(event -> {
          try {
            return new Event(event.type(), Serialization.jsonMapper().readTree(event.data()));
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
          }
        })
        .toList();
  }
}
