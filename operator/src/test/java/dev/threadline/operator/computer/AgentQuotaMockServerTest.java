package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.support.QuotaRefusals;
import dev.threadline.operator.support.StrictMockOperator;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A tenant namespace whose ResourceQuota has no room for another sandbox Pod: the run waits,
 * without failing, and starts once the API server accepts its Pod; a run that never gets room ends
 * at its deadline with the quota's words.
 */
class AgentQuotaMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @RegisterExtension
  static final StrictMockOperator cluster =
      StrictMockOperator.withEnvironment(
          Map.of(
              "THREADLINE_WATCH_NAMESPACES", "busy,full",
              "THREADLINE_WORKER_NAME", "operator-0",
              "THREADLINE_AGENT_DEADLINE_SECONDS", "4"));

  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    client = cluster.client();
  }

  @Test
  void aRunWaitsForRoomInTheQuotaAndThenStarts() {
    refusePods("busy", "run-wait-1", 2);
    client.resource(run("busy", "thread-wait")).create();

    Pod pod =
        await()
            .atMost(WAIT)
            .until(
                () -> client.pods().inNamespace("busy").withName("run-wait-1").get(),
                p -> p != null);

    assertThat(pod.getMetadata().getLabels()).containsEntry("threadline.dev/run", "run-wait-1");
    assertThat(pod.getSpec().getContainers().get(0).getArgs()).contains("serve");
    Run run = client.resources(Run.class).inNamespace("busy").withName("run-wait-1").get();
    assertThat(run.getStatus().getPhase()).isEqualTo("running");
    assertThat(run.getStatus().getError()).isNull();
    await()
        .atMost(WAIT)
        .until(() ->
            "run-wait-1"
                .equals(
                    client
                        .resources(Run.class)
                        .inNamespace("busy")
                        .withName("run-wait-1")
                        .get()
                        .getStatus()
                        .getPod()));
  }

  @Test
  void aRunThatNeverGetsRoomEndsAtItsDeadlineWithTheQuotasWords() {
    refusePods("full", "run-never-1", 1000);
    client.resource(run("full", "thread-never")).create();

    Run ended =
        await()
            .atMost(WAIT)
            .until(
                () -> client.resources(Run.class).inNamespace("full").withName("run-never-1").get(),
                r -> r != null && r.getStatus() != null && r.getStatus().getCompletedAt() != null);

    assertThat(ended.getStatus().getPhase()).isEqualTo("failed");
    assertThat(ended.getStatus().getError().getCode()).isEqualTo("execution_timeout");
    assertThat(ended.getStatus().getError().getMessage())
        .startsWith("No agent Pod could start within 4 s: ")
        .contains("exceeded quota: agents");
    assertThat(client.pods().inNamespace("full").list().getItems()).isEmpty();
  }

  private static void refusePods(String namespace, String pod, int times) {
    QuotaRefusals.refusePods(cluster.server(), namespace, pod, times);
  }

  private static Run run(String namespace, String threadName) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace(namespace).build());
    thread.setSpec(new ThreadSpec());
    thread = client.resource(thread).create();
    return ThreadRuns.newRun(thread, 1, "Run `make`", List.of(), ThreadRuns.SOURCE_API);
  }
}
