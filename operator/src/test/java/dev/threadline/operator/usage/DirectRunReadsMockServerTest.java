package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.Threads;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reads a direct run costs the operator beyond its watches: the tenant's namespace (plan, user
 * id) and the month's ledger come from informers (before: two GETs of each per run), so the usage
 * path's only GET is the recorder's fresh read of the Run before counting it (its guard against
 * counting twice from a stale copy), and a re-read when its mark meets a conflict.
 */
@EnableKubernetesMockClient(crud = true)
class DirectRunReadsMockServerTest {
  private static final String NS = "erin";
  private static final int RUNS = 5;
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static ThreadlineOperator operator;

  @BeforeAll
  static void startOperator() {
    OperatorMockServer.registerCrds(server, client);
    client
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(NS)
                .addToAnnotations(Labels.USER_ANNOTATION, "erin-user")
                .endMetadata()
                .build())
        .create();
    operator = ThreadlineOperator.start(client, OperatorSettings.defaults());
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
  }

  @Test
  void aDirectRunReadsOnlyItsRunAgain() throws Exception {
    BlockingQueue<String> counted = new LinkedBlockingQueue<>();
    try (Watch runs = client.resources(Run.class).inNamespace(NS).watch(countedRuns(counted))) {
      ConversationThread thread = Threads.create(client, NS, "thread-reads");
      // The first run creates the month's ledger; the runs after it are the steady state.
      runAndWait(thread, 1, counted);
      drain();
      for (int sequence = 2; sequence <= RUNS + 1; sequence++) {
        runAndWait(thread, sequence, counted);
      }
    }

    List<String> reads = drain();
    Map<String, Long> byKind =
        reads.stream().collect(Collectors.groupingBy(path -> kind(path), Collectors.counting()));
    assertThat(byKind.getOrDefault("namespaces", 0L)).as("namespace GETs: %s", reads).isZero();
    assertThat(byKind.getOrDefault("usageledgers", 0L)).as("ledger GETs: %s", reads).isZero();
    // The recorder's guard, and a re-read each time another controller wrote the Run between a
    // read and the mark (the webhooks controller's mark usually does, once or twice).
    assertThat(byKind.getOrDefault("runs", 0L))
        .as("Run GETs: %s", reads)
        .isBetween((long) RUNS, 3L * RUNS);
    // Not the direct path's: the webhooks controller reads the run's thread and lists the
    // environments (for the default one); the thread controller reads its thread after a conflict.
    assertThat(reads)
        .as("every GET of the direct runs")
        .allMatch(path -> List.of("runs", "threads", "environments").contains(kind(path)));
  }

  private static void runAndWait(
      ConversationThread thread, int sequence, BlockingQueue<String> done)
      throws InterruptedException {
    Run run = ThreadRuns.newRun(thread, sequence, "Hello!", List.of(), ThreadRuns.SOURCE_API);
    client.resource(run).create();
    // Waited for through the watch: a GET here would be counted with the operator's.
    String name;
    do {
      name = done.poll(30, TimeUnit.SECONDS);
      assertThat(name).as("run %d counted", sequence).isNotNull();
    } while (!name.equals(run.getMetadata().getName()));
  }

  /** The plain GETs (not lists or watches: informers) since the last call, by path. */
  private static List<String> drain() throws InterruptedException {
    List<String> gets = new ArrayList<>();
    for (RecordedRequest request = server.takeRequest(1, TimeUnit.MILLISECONDS);
        request != null;
        request = server.takeRequest(1, TimeUnit.MILLISECONDS)) {
      String[] pathAndQuery = request.getPath().split("\\?", 2);
      boolean watchOrList =
          pathAndQuery.length > 1
              && (pathAndQuery[1].contains("watch=") || pathAndQuery[1].contains("limit="));
      if (request.method() == HttpMethod.GET && !watchOrList) {
        gets.add(pathAndQuery[0]);
      }
    }
    return gets;
  }

  /**
   * The resource a path names: {@code …/namespaces/<ns>/<resource>[/<name>]}, or {@code namespaces}
   * for a namespace itself.
   */
  private static String kind(String path) {
    List<String> segments = List.of(path.split("/"));
    int namespaces = segments.indexOf("namespaces");
    if (namespaces < 0) {
      return path;
    }
    return namespaces + 2 < segments.size() ? segments.get(namespaces + 2) : "namespaces";
  }

  private static Watcher<Run> countedRuns(BlockingQueue<String> counted) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Run run) {
        if (run.getStatus() != null && Boolean.TRUE.equals(run.getStatus().getUsageRecorded())) {
          counted.add(run.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
