package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.history.History;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.RunLogs;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes keeps the control plane, bounded, whatever a run does: after runs of 29 commands that
 * each print 200 KB (the turn limit is 30 model calls) and a run that writes 500 files, no Run is
 * over 16 KiB and no ConfigMap or Secret of the namespace over 64 KiB, while the history store
 * holds every event of every run, outputs in full up to the runner's bound.
 *
 * <p>One scenario for every engine of the history store: each subclass names the variables that
 * point the local mode at its store ({@link BoundedObjectsE2ETest}: the default SQLite file, {@link
 * BoundedObjectsPostgresE2ETest}: a real PostgreSQL server).
 */
abstract class BoundedObjectsScenario {
  private static final String NS = "alice";
  private static final Duration RUN_TIME = Duration.ofMinutes(4);
  private static final String LOUD = "head -c 200000 /dev/zero | tr '\\0' a";
  private final Map<String, String> historyVariables;
  private LocalModeFixture fixture;
  private KubernetesClient client;

  /**
   * @param historyVariables what the local mode reads its history store's settings from ({@code
   *     THREADLINE_HISTORY_*}); empty for the default, {@code history.db} in its data folder
   */
  BoundedObjectsScenario(Map<String, String> historyVariables) {
    this.historyVariables = Map.copyOf(historyVariables);
  }

  @BeforeEach
  void start() {
    fixture = LocalModeFixture.start(historyVariables, UnaryOperator.identity());
    client = fixture.local().client();
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void manyLoudCommandsAndManyFilesLeaveSmallObjectsAndAFullHistory() {
    ConversationThread thread = createThread("thread-e2e-bounded");
    String task =
        "Run "
            + IntStream.rangeClosed(1, 29)
                .mapToObj(i -> "`" + LOUD + "`")
                .collect(Collectors.joining(", then "));
    for (long sequence = 1; sequence <= 4; sequence++) {
      createRun(thread, sequence, task);
      Run done = awaitEnded("run-e2e-bounded-" + sequence);
      assertThat(done.getStatus().getPhase())
          .as(String.valueOf(done.getStatus().getError()))
          .isEqualTo("completed");
      List<RunLogs.Event> events = RunLogs.events(history(), done);
      List<RunLogs.Event> tools =
          events.stream()
              .filter(event -> "tool_call".equals(event.type()))
              .filter(event -> "completed".equals(event.data().path("status").asText()))
              .toList();
      assertThat(tools).hasSize(29);
      // Each output as the sandbox gave it (its own bound), none cut by the log.
      assertThat(tools)
          .allSatisfy(tool -> {
            String output = tool.data().at("/tool/output").asText();
            assertThat(output).startsWith("aaaa").doesNotContain("not kept in the run's log");
            assertThat(output.length()).isGreaterThan(60_000);
          });
      assertThat(events.getFirst().seq()).isEqualTo(1);
      assertThat(events.getLast().seq()).isEqualTo(events.size());
      assertThat(done.getStatus().getLastEventSeq()).isEqualTo((long) events.size());
    }

    createRun(thread, 5, "Run `for i in $(seq 1 500); do echo file $i > f$i.txt; done`");
    Run files = awaitEnded("run-e2e-bounded-5");
    assertThat(files.getStatus().getPhase()).isEqualTo("completed");
    assertThat(files.getStatus().getDiffCount()).isEqualTo(500L);
    assertThat(history().diffs().ofRun(RunEventLog.key(files))).hasSize(500);

    for (Run run : client.resources(Run.class).inNamespace(NS).list().getItems()) {
      assertThat(size(run)).as("Run %s", run.getMetadata().getName()).isLessThan(16 * 1024);
    }
    client
        .configMaps()
        .inNamespace(NS)
        .list()
        .getItems()
        .forEach(map ->
            assertThat(size(map))
                .as("ConfigMap %s", map.getMetadata().getName())
                .isLessThan(64 * 1024));
    client
        .secrets()
        .inNamespace(NS)
        .list()
        .getItems()
        .forEach(secret ->
            assertThat(size(secret))
                .as("Secret %s", secret.getMetadata().getName())
                .isLessThan(64 * 1024));
  }

  private History history() {
    return fixture.local().history();
  }

  private static int size(Object object) {
    return Serialization.asJson(object).getBytes(StandardCharsets.UTF_8).length;
  }

  private ConversationThread createThread(String name) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    thread.setSpec(new ThreadSpec());
    return client.resource(thread).create();
  }

  private void createRun(ConversationThread thread, long sequence, String message) {
    client
        .resource(ThreadRuns.newRun(thread, sequence, message, List.of(), ThreadRuns.SOURCE_API))
        .create();
  }

  private Run awaitEnded(String name) {
    return await()
        .atMost(RUN_TIME)
        .until(
            () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }
}
