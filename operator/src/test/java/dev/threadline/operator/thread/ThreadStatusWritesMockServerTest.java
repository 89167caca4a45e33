package dev.threadline.operator.thread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writes a direct run costs its thread and itself, as every informer receives them: none that
 * changes nothing but a timestamp (the thread controller reconciling from a copy older than its own
 * last write) and no write that only adds the usage finalizer (runs are created with it); one
 * status write of the thread a run.
 */
@EnableKubernetesMockClient(crud = true)
class ThreadStatusWritesMockServerTest {
  private static final String NS = "dora";
  private static final int RUNS = 5;
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static ThreadlineOperator operator;

  @BeforeAll
  static void startOperator() {
    OperatorMockServer.registerCrds(server, client);
    operator = ThreadlineOperator.start(client, OperatorSettings.defaults());
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
  }

  @Test
  void everyThreadAndRunWriteOfDirectRunsChangesWhatItIsFor() {
    List<ConversationThread> threadWrites = new CopyOnWriteArrayList<>();
    List<Run> runWrites = new CopyOnWriteArrayList<>();
    try (Watch threads =
            client
                .resources(ConversationThread.class)
                .inNamespace(NS)
                .watch(recording(threadWrites));
        Watch runs = client.resources(Run.class).inNamespace(NS).watch(recording(runWrites))) {
      ConversationThread thread = Threads.create(client, NS, "thread-writes");
      for (int sequence = 1; sequence <= RUNS; sequence++) {
        Run run = ThreadRuns.newRun(thread, sequence, "Hello!", List.of(), ThreadRuns.SOURCE_API);
        assertThat(run.getMetadata().getFinalizers()).containsExactly(ThreadRuns.USAGE_FINALIZER);
        client.resource(run).create();
        String name = run.getMetadata().getName();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
                seen ->
                    seen.getStatus() != null
                        && Boolean.TRUE.equals(seen.getStatus().getUsageRecorded()));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    client
                        .resources(ConversationThread.class)
                        .inNamespace(NS)
                        .withName("thread-writes")
                        .get()
                        .getStatus(),
                status -> status != null && "completed".equals(status.getStatus()));
      }
    }

    // Its creation, then one status write a run (its end, with the totals: no idle before the run,
    // no running for a run that ends within StatusSettling's window); a run's creation, its end
    // and its usage mark.
    assertThat(threadWrites).as("the thread's writes").hasSize(1 + RUNS);
    assertThat(runWrites).as("the runs' writes").hasSize(3 * RUNS);

    List<String> statuses = new ArrayList<>();
    threadWrites.forEach(written -> statuses.add(json(withoutUpdatedAt(written.getStatus()))));
    for (int i = 1; i < statuses.size(); i++) {
      assertThat(statuses.get(i))
          .as("thread write %d of %d changes more than updatedAt", i + 1, statuses.size())
          .isNotEqualTo(statuses.get(i - 1));
    }
    for (Run written : runWrites) {
      Run before = previousOf(runWrites, written);
      if (before != null) {
        assertThat(json(written.getStatus()))
            .as("a write of %s changes its status", written.getMetadata().getName())
            .isNotEqualTo(json(before.getStatus()));
      }
    }
  }

  private static Run previousOf(List<Run> writes, Run write) {
    Run previous = null;
    for (Run each : writes) {
      if (each == write) {
        return previous;
      }
      if (each.getMetadata().getName().equals(write.getMetadata().getName())) {
        previous = each;
      }
    }
    return previous;
  }

  private static String json(Object status) {
    return client.getKubernetesSerialization().asJson(status);
  }

  private static ThreadStatus withoutUpdatedAt(ThreadStatus status) {
    if (status == null) {
      return null;
    }
    ThreadStatus copy = client.getKubernetesSerialization().clone(status);
    copy.setUpdatedAt(null);
    return copy;
  }

  private static <T extends HasMetadata> Watcher<T> recording(List<T> writes) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        if (action == Action.ADDED || action == Action.MODIFIED) {
          writes.add(resource);
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
