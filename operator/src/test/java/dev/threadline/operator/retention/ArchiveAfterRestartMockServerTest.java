package dev.threadline.operator.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import dev.threadline.history.ArchivedThread;
import dev.threadline.history.History;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * An idle thread's archive timer lives in the operator's process: a restarted operator sets it
 * again, so a thread that was not yet due when the operator stopped still leaves at its time (not
 * before).
 */
@EnableKubernetesMockClient(crud = true)
class ArchiveAfterRestartMockServerTest {
  private static final String NS = "restart";
  private static final Duration THREAD_RETENTION = Duration.ofSeconds(8);

  static KubernetesMockServer server;
  static KubernetesClient client;

  @Test
  void anIdleThreadRolledUpBeforeTheOperatorStartedLeavesAtItsTime() {
    OperatorMockServer.registerCrds(server, client);
    // As an operator that stopped before the thread was due left it: rolled up, nothing to change.
    ConversationThread thread = Threads.create(client, NS, "thread-idle");
    Instant lastChange = Instant.now();
    ThreadStatus status = new ThreadStatus();
    status.setObservedGeneration(thread.getMetadata().getGeneration());
    status.setStatus("active");
    status.setMessageCount(0L);
    status.setUpdatedAt(Timestamps.format(lastChange));
    thread.setStatus(status);
    client.resource(thread).updateStatus();

    try (History history = History.temporary();
        ThreadlineOperator restarted = start(history)) {
      await().atMost(Duration.ofSeconds(60)).until(() -> thread("thread-idle") == null);
      ArchivedThread archived = history.threads().find(NS, "thread-idle").orElseThrow();
      assertThat(Timestamps.parse(archived.archivedAt()).orElseThrow())
          .isAfterOrEqualTo(lastChange.plus(THREAD_RETENTION).truncatedTo(ChronoUnit.SECONDS));
    }
  }

  private static ThreadlineOperator start(History history) {
    return ThreadlineOperator.start(
        client,
        OperatorSettings.defaults()
            .withRetention(new RetentionSettings(Duration.ofSeconds(1), THREAD_RETENTION)),
        Clock.systemUTC(),
        Telemetry.off(),
        history);
  }

  private static ConversationThread thread(String name) {
    return client.resources(ConversationThread.class).inNamespace(NS).withName(name).get();
  }
}
