package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.History;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.HistoryLimits;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A schedule's run reaches the operator without the API server's check of the user's history quota:
 * past it the run fails with the quota's words; with room, or admitted by the API server, it runs.
 */
@EnableKubernetesMockClient(crud = true)
class HistoryQuotaMockServerTest {
  private static final long QUOTA = 10_000;

  static KubernetesMockServer server;
  static KubernetesClient client;
  private static History history;
  private static ThreadlineOperator operator;

  @BeforeAll
  static void startOperator() {
    OperatorMockServer.registerCrds(server, client);
    history = History.temporary();
    operator =
        ThreadlineOperator.start(
            client,
            OperatorSettings.defaults()
                .withHistory(
                    new HistoryLimits(
                        HistoryLimits.DEFAULT_TOOL_OUTPUT,
                        HistoryLimits.DEFAULT_WORKSPACE_ARCHIVE,
                        QUOTA)),
            Clock.systemUTC(),
            Telemetry.off(),
            history);
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
    history.close();
  }

  @Test
  void aScheduledRunPastTheQuotaFailsNamingItAndOneWithRoomRuns() {
    // What earlier runs left: the user "full" keeps more than the quota.
    history.messageBodies().write("full", "thread-old", "body-1", "x".repeat((int) QUOTA));

    Run refused = ended(run("full", "thread-sched", ThreadRuns.SOURCE_SCHEDULE));
    assertThat(RunPhase.of(refused)).isEqualTo(RunPhase.FAILED);
    assertThat(refused.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(refused.getStatus().getError().getMessage())
        .contains("at most " + QUOTA + " bytes of conversation history")
        .contains("THREADLINE_LIMITS_HISTORYBYTES");

    // The API server admitted this one (it checks REST messages itself).
    assertThat(RunPhase.of(ended(run("full", "thread-rest", ThreadRuns.SOURCE_API))))
        .isEqualTo(RunPhase.COMPLETED);
    assertThat(RunPhase.of(ended(run("room", "thread-sched", ThreadRuns.SOURCE_SCHEDULE))))
        .isEqualTo(RunPhase.COMPLETED);
  }

  private static Run run(String namespace, String threadName, String source) {
    ConversationThread thread = Threads.create(client, namespace, threadName);
    Run run = ThreadRuns.newRun(thread, 1, "Hello", List.of(), source);
    return client.resource(run).create();
  }

  private static Run ended(Run run) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.resource(run).get(),
            seen -> seen != null && RunPhase.of(seen).isTerminal());
  }
}
