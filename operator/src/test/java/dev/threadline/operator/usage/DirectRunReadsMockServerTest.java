package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.ControllerReconciles;
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
 * The reads and reconciles a direct run costs the operator beyond its watches, once the month's
 * ledger exists and the usage recorder trusts its cache (after the first run): none of the first —
 * the tenant's namespace and the ledger come from informers, the recorder counts from its cache of
 * Runs, the webhooks bookkeeping reads Environments from an informer and no Thread when no webhook
 * can apply, the thread controller writes from its own last write — and only the reconciles that
 * act: the thread rolled up at the run's start and end, the run counted once and announced once.
 */
@EnableKubernetesMockClient(crud = true)
class DirectRunReadsMockServerTest {
  private static final String NS = "erin";
  private static final int RUNS = 5;
  private static final List<String> CONTROLLERS = List.of("run-bookkeeping", "thread");
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static ThreadlineOperator operator;
  private static ControllerReconciles reconciles;

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
    reconciles = ControllerReconciles.of(operator);
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
  }

  @Test
  void aDirectRunReadsNothingAndReconcilesOnlyWhatActs() throws Exception {
    BlockingQueue<String> counted = new LinkedBlockingQueue<>();
    Map<String, Long> reconciled;
    try (Watch runs = client.resources(Run.class).inNamespace(NS).watch(countedRuns(counted))) {
      ConversationThread thread = Threads.create(client, NS, "thread-reads");
      // The first run creates the month's ledger and makes the recorder trust its cache; the runs
      // after it are the steady state.
      runAndWait(thread, 1, counted);
      Map<String, Long> before = settledReconciles();
      drain();
      for (int sequence = 2; sequence <= RUNS + 1; sequence++) {
        runAndWait(thread, sequence, counted);
      }
      Map<String, Long> after = settledReconciles();
      reconciled =
          CONTROLLERS.stream().collect(Collectors.toMap(c -> c, c -> after.get(c) - before.get(c)));
    }

    List<String> reads = drain();
    Map<String, Long> byKind =
        reads.stream().collect(Collectors.groupingBy(path -> kind(path), Collectors.counting()));
    // Before: per run 1–3 Run GETs (the recorder's guard, its mark's conflicts), a Thread GET and
    // an
    // Environment LIST (webhooks), a Thread GET after some of the thread controller's conflicts.
    assertThat(byKind).as("GETs and LISTs of %d direct runs, by kind: %s", RUNS, reads).isEmpty();
    // The thread: the run's start (running) and its end (completed). The run: its end, once for
    // its bookkeeping (counted and announced, both marks in one write); again only when another
    // writer's event arrived while it was reconciled (the framework then reconciles once more, and
    // that reconcile finds it done).
    // Before: every Run write reconciled all three (create, answer, both marks: 4 each per run);
    // then the usage and webhooks controllers reconciled each run's end once each.
    assertThat(reconciled.get("thread")).as("thread reconciles").isEqualTo(2L * RUNS);
    assertThat(reconciled.get("run-bookkeeping"))
        .as("bookkeeping reconciles")
        .isBetween((long) RUNS, 2L * RUNS);
  }

  private static Map<String, Long> settledReconciles() {
    reconciles.awaitSettled(CONTROLLERS.toArray(String[]::new));
    return CONTROLLERS.stream().collect(Collectors.toMap(c -> c, c -> reconciles.of(c)));
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

  /**
   * The GETs and LISTs (not the informers' watches) since the last call, by path: the informers'
   * first lists are made at start, before the first call.
   */
  private static List<String> drain() throws InterruptedException {
    List<String> reads = new ArrayList<>();
    for (RecordedRequest request = server.takeRequest(1, TimeUnit.MILLISECONDS);
        request != null;
        request = server.takeRequest(1, TimeUnit.MILLISECONDS)) {
      String[] pathAndQuery = request.getPath().split("\\?", 2);
      boolean watch = pathAndQuery.length > 1 && pathAndQuery[1].contains("watch=");
      if (request.method() == HttpMethod.GET && !watch) {
        reads.add(pathAndQuery[0]);
      }
    }
    return reads;
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
