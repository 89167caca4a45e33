package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.ControllerReconciles;
import dev.threadline.operator.support.RunLogs;
import dev.threadline.operator.support.StatusWrites;
import dev.threadline.operator.support.StrictMockOperator;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The run reconciler in a whole operator, on a CRUD mock that refuses stale writes as a cluster
 * does.
 */
class RunReconcilerMockServerTest {
  private static final String NS = "alice";

  @RegisterExtension
  static final StrictMockOperator cluster = new StrictMockOperator(OperatorSettings.defaults());

  private static KubernetesMockServer server;
  private static KubernetesClient client;
  private static ThreadlineOperator operator;
  private static ControllerReconciles reconciles;

  /** The controllers that write a direct run's status (see docs/operator-status.md). */
  private static final String[] RUN_WRITERS = {"run", "run-bookkeeping"};

  @BeforeAll
  static void startOperator() {
    server = cluster.server();
    client = cluster.client();
    operator = cluster.operator();
    reconciles = ControllerReconciles.of(operator);
  }

  @Test
  void greetingIsAnsweredDirectlyAndRolledUpIntoTheThread() {
    ConversationThread thread = createThread("thread-greet");
    createRun(thread, 1, "Hello!", null);

    Run run = awaitTerminal("run-greet-1");
    assertThat(run.getStatus().getPhase()).isEqualTo("completed");
    assertThat(run.getStatus().getRoute()).isEqualTo("direct");
    assertThat(run.getStatus().getRouteReason()).contains("greeting");
    assertThat(run.getStatus().getResponse()).isNotBlank();
    assertThat(run.getStatus().getUsage().getInputTokens()).isPositive();
    assertThat(run.getStatus().getUsage().getOutputTokens()).isPositive();
    assertThat(run.getStatus().getDurationMs()).isNotNegative();
    assertThat(RunLogs.events(operator.history(), run))
        .extracting(RunLogs.Event::seq)
        .containsExactly(1L, 2L, 3L);
    assertThat(RunLogs.types(operator.history(), run))
        .containsExactly("started", "message", "result");
    assertThat(run.getStatus().getLastEventSeq()).isEqualTo(3L);
    assertThat(operator.history().runs().find(NS, "run-greet-1"))
        .hasValueSatisfying(record -> {
          assertThat(record.message()).isEqualTo("Hello!");
          assertThat(record.response()).isEqualTo(run.getStatus().getResponse());
        });
    assertThat(Conditions.find(run.getStatus().getConditions(), Conditions.READY))
        .hasValueSatisfying(ready -> {
          assertThat(ready.getStatus()).isEqualTo("True");
          assertThat(ready.getReason()).isEqualTo("Completed");
        });

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          ConversationThread seen =
              client
                  .resources(ConversationThread.class)
                  .inNamespace(NS)
                  .withName("thread-greet")
                  .get();
          assertThat(seen.getStatus()).isNotNull();
          assertThat(seen.getStatus().getStatus()).isEqualTo("completed");
          assertThat(seen.getStatus().getMessageCount()).isEqualTo(2L);
          assertThat(seen.getStatus().tokens().getInputTokens())
              .isEqualTo(run.getStatus().getUsage().getInputTokens());
          assertThat(seen.getStatus().tokens().getOutputTokens())
              .isEqualTo(run.getStatus().getUsage().getOutputTokens());
          assertThat(seen.getStatus().getActiveRun()).isNull();
          assertThat(Conditions.find(seen.getStatus().getConditions(), Conditions.READY))
              .hasValueSatisfying(ready -> assertThat(ready.getReason()).isEqualTo("Idle"));
        });
  }

  @Test
  void aDirectRunAndItsThreadAreWrittenOncePerReconcileAndNotWhenNothingChanged()
      throws InterruptedException {
    StatusWrites writes = new StatusWrites(server);
    String runPath = "/apis/threadline.dev/v1alpha1/namespaces/" + NS + "/runs/run-count-1";
    String threadPath = "/apis/threadline.dev/v1alpha1/namespaces/" + NS + "/threads/thread-count";
    long runsBefore = reconciles.awaitSettled(RUN_WRITERS);
    long threadsBefore = reconciles.awaitSettled("thread");
    ConversationThread thread = createThread("thread-count");
    createRun(thread, 1, "Hello!", null);
    awaitTerminal("run-count-1");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> {
          RunStatus status =
              client.resources(Run.class).inNamespace(NS).withName("run-count-1").get().getStatus();
          return Boolean.TRUE.equals(status.getUsageRecorded())
              && Boolean.TRUE.equals(status.getWebhooksQueued());
        });
    long runReconciles = reconciles.awaitSettled(RUN_WRITERS) - runsBefore;
    long threadReconciles = reconciles.awaitSettled("thread") - threadsBefore;

    // Each writer of the run's status writes at most once per reconcile.
    long runWrites = writes.to(runPath);
    assertThat(runWrites).isPositive().isLessThanOrEqualTo(runReconciles);
    // The answer (the run controller), then the bookkeeping's one write of both marks.
    assertThat(runWrites).as("status writes of a direct run").isEqualTo(2);
    long threadWrites = writes.to(threadPath);
    assertThat(threadWrites).isPositive().isLessThanOrEqualTo(threadReconciles);

    // Reconciles that find nothing new write nothing: a spec change of the ended run reconciles
    // it again (not its thread: the change moves none of the thread's totals).
    long settled = reconciles.of("run");
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-count-1")
        .edit(run -> {
          run.getSpec().setCancelRequested(true);
          return run;
        });
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciles.of("run") >= settled + 1);
    reconciles.awaitSettled("run", "thread");
    assertThat(writes.to(runPath)).isEqualTo(runWrites);
    assertThat(writes.to(threadPath)).isEqualTo(threadWrites);
  }

  @Test
  void followUpSeesTheEarlierMessages() {
    ConversationThread thread = createThread("thread-history");
    createRun(thread, 1, "Hello there", null);
    awaitTerminal("run-history-1");
    createRun(thread, 2, "What did I say before?", null);

    Run second = awaitTerminal("run-history-2");
    assertThat(second.getStatus().getResponse()).contains("Hello there");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() ->
            assertThat(
                    client
                        .resources(ConversationThread.class)
                        .inNamespace(NS)
                        .withName("thread-history")
                        .get()
                        .getStatus()
                        .getMessageCount())
                .isEqualTo(4L));
  }

  @Test
  void cancelRequestedBeforeExecutionEndsCancelled() {
    ConversationThread thread = createThread("thread-cancel");
    createRun(thread, 1, "Hello", true);

    Run run = awaitTerminal("run-cancel-1");
    assertThat(run.getStatus().getPhase()).isEqualTo("cancelled");
    assertThat(run.getStatus().getError().getCode()).isEqualTo("cancelled");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() ->
            assertThat(
                    client
                        .resources(ConversationThread.class)
                        .inNamespace(NS)
                        .withName("thread-cancel")
                        .get()
                        .getStatus()
                        .getStatus())
                .isEqualTo("cancelled"));
  }

  @Test
  void unknownAgentFailsTheRunWithAClearMessage() {
    ConversationThread thread = createThread("thread-noagent");
    Run run = run(thread, 1, "Hello", null);
    run.getSpec().setAgent("agent-missing");
    client.resource(run).create();

    Run done = awaitTerminal("run-noagent-1");
    assertThat(done.getStatus().getPhase()).isEqualTo("failed");
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage()).contains("agent-missing");
    assertThat(Conditions.find(done.getStatus().getConditions(), Conditions.READY))
        .hasValueSatisfying(ready -> {
          assertThat(ready.getStatus()).isEqualTo("False");
          assertThat(ready.getReason()).isEqualTo("Failed");
          assertThat(ready.getMessage()).contains("agent-missing");
        });
  }

  private static ConversationThread createThread(String name) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    thread.setSpec(new ThreadSpec());
    return client.resource(thread).create();
  }

  private static void createRun(
      ConversationThread thread, long sequence, String message, Boolean cancel) {
    Run run = run(thread, sequence, message, cancel);
    client.resource(run).create();
  }

  private static Run run(ConversationThread thread, long sequence, String message, Boolean cancel) {
    Run run = ThreadRuns.newRun(thread, sequence, message, List.of(), ThreadRuns.SOURCE_API);
    run.getSpec().setCancelRequested(cancel);
    return run;
  }

  private static Run awaitTerminal(String name) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }
}
