package dev.threadline.operator.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.ArchivedThread;
import dev.threadline.history.History;
import dev.threadline.history.RunRecord;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.computer.WorkspaceClaim;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
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
 * Finished runs leave the Kubernetes API after their retention, and idle threads after theirs,
 * their last state kept in the history store and the thread's totals exact.
 */
@EnableKubernetesMockClient(crud = true)
class RetentionMockServerTest {
  private static final String NS = "ret";
  private static final String REVIVE_NS = "ret-revive";
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
                .withRetention(new RetentionSettings(Duration.ofSeconds(1), Duration.ofSeconds(3))),
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
  void aRevivedThreadAdoptsAWorkspaceClaimLeftFromItsEarlierLife() {
    ConversationThread earlier = Threads.create(client, REVIVE_NS, "thread-revived");
    client.resource(WorkspaceClaim.of(earlier, AgentPodSettings.defaults())).create();
    client.resource(earlier).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> client.resource(earlier).get() == null);
    // Revived by a follow-up: the same name, a new uid.
    ConversationThread revived = Threads.create(client, REVIVE_NS, "thread-revived");
    assertThat(revived.getMetadata().getUid()).isNotEqualTo(earlier.getMetadata().getUid());

    WorkspaceClaim.ensure(client, revived, AgentPodSettings.defaults());

    assertThat(
            client
                .persistentVolumeClaims()
                .inNamespace(REVIVE_NS)
                .withName(AgentObjects.workspaceClaimName("thread-revived"))
                .get()
                .getMetadata()
                .getOwnerReferences())
        .extracting(owner -> owner.getUid())
        .containsExactly(revived.getMetadata().getUid());
    client.resource(revived).delete();
  }

  @Test
  void finishedRunsLeaveInOrderThenTheIdleThreadAndNothingIsLostOrCountedTwice() {
    ConversationThread thread = Threads.create(client, NS, "thread-kept");
    // Its workspace claim, as its first computer run makes it.
    client.resource(WorkspaceClaim.of(thread, AgentPodSettings.defaults())).create();
    for (int sequence = 1; sequence <= 3; sequence++) {
      Run run =
          ThreadRuns.newRun(
              thread, sequence, "Hello " + sequence, List.of(), ThreadRuns.SOURCE_API);
      client.resource(run).create();
      String name = run.getMetadata().getName();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
              seen ->
                  seen == null
                      || seen.getStatus() != null
                          && Boolean.TRUE.equals(seen.getStatus().getUsageRecorded()));
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(Run.class).inNamespace(NS).list().getItems().isEmpty());
    List<RunRecord> records = history.runs().ofThread(NS, "thread-kept");
    assertThat(records).extracting(RunRecord::sequence).containsExactly(1L, 2L, 3L);
    assertThat(records)
        .allSatisfy(record -> assertThat(record.archived()).contains("\"kind\":\"Run\""));
    assertThat(records.getFirst().message()).isEqualTo("Hello 1");

    // The thread leaves 3 s after its last change, with every run counted once.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            client.resources(ConversationThread.class).inNamespace(NS).withName("thread-kept").get()
                == null);
    // Nothing of the thread stays in the API (no garbage collector needed).
    assertThat(client.persistentVolumeClaims().inNamespace(NS).list().getItems()).isEmpty();
    ArchivedThread archived = history.threads().find(NS, "thread-kept").orElseThrow();
    ConversationThread last =
        client.getKubernetesSerialization().unmarshal(archived.object(), ConversationThread.class);
    assertThat(last.getStatus().getMessageCount()).isEqualTo(6);
    assertThat(last.getStatus().getArchived().getRuns()).isEqualTo(3);
    assertThat(last.getStatus().getArchived().getLastSequence()).isEqualTo(3);
    assertThat(last.getStatus().getStatus()).isEqualTo("completed");
  }
}
