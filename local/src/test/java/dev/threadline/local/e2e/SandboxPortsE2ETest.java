package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.pool.PoolLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ports a sandbox owns, where Pods share the host's network: two local modes on one machine with
 * the same small port range (16), one port of it held by another program, a warm pool of 2 in the
 * first. Twenty computer runs in a row on each (the first's claimed or cold while its pool refills)
 * all complete, and the pool's Pods are replaced only when claimed, never in a loop.
 */
class SandboxPortsE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int RUNS = 20;
  private static final Duration RUN_TIME = Duration.ofSeconds(120);

  /** Shorter than the runner tries a taken port (5 s), and longer. */
  private static final Duration SHORT_HOLD = Duration.ofMillis(1500);

  private static final Duration LONG_HOLD = Duration.ofSeconds(30);
  private static ServerSocket foreign;
  private static LocalModeFixture pooled;
  private static LocalModeFixture other;
  private static final Set<String> poolPods = ConcurrentHashMap.newKeySet();
  private static final Set<String> failedPods = ConcurrentHashMap.newKeySet();
  private static Watch watch;

  @BeforeAll
  static void start() throws Exception {
    // A range of 32 below the system's ephemeral ports (which any outgoing connection may take),
    // whose first port another program holds. 16 ran out once: the two modes' ending Pods and the
    // ports avoided for a minute after the long hold left none (a run then waits for a port, as
    // SandboxPortWaitE2ETest shows, which would make these runs slow rather than failed).
    foreign = new ServerSocket();
    int first = 0;
    for (int attempt = 0; first == 0; attempt++) {
      int candidate = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(10_000);
      try {
        foreign.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), candidate));
        first = candidate;
      } catch (java.io.IOException taken) {
        assertThat(attempt).as("no free port found below the ephemeral range").isLessThan(50);
      }
    }
    Map<String, String> range = Map.of("THREADLINE_CONTAINER_PORTS", first + "-" + (first + 31));
    pooled = LocalModeFixture.start(range, UnaryOperator.identity());
    other = LocalModeFixture.start(range, UnaryOperator.identity());
    watch =
        pooled
            .local()
            .client()
            .pods()
            .inNamespace("alice")
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    String name = pod.getMetadata().getName();
                    if (pod.getMetadata().getLabels() != null
                        && pod.getMetadata().getLabels().containsKey(PoolLabels.POOL)) {
                      poolPods.add(name);
                    }
                    if (pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase())) {
                      failedPods.add(name + ": " + pod.getStatus().getContainerStatuses());
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    askForPool(pooled, 2);
  }

  @AfterAll
  static void stop() throws Exception {
    if (watch != null) {
      watch.close();
    }
    if (other != null) {
      other.close();
    }
    if (pooled != null) {
      pooled.close();
    }
    foreign.close();
  }

  @Test
  void twentyRunsInARowOnEachOfTwoLocalModesAllComplete() throws Exception {
    for (int i = 0; i < RUNS; i++) {
      String task = "{\"task\":\"Run `echo run-" + i + "`\",\"stream\":false}";
      CompletableFuture<Run> first = CompletableFuture.supplyAsync(() -> run(pooled, task));
      Run second = run(other, task);
      for (Run run : List.of(first.get(), second)) {
        assertThat(run.getStatus().getPhase())
            .as("run %d (%s): %s", i, run.getMetadata().getName(), run.getStatus().getError())
            .isEqualTo("completed");
      }
    }

    assertThat(failedPods).isEmpty();
    // Each claim is replaced once; a pool whose Pods die is replaced again and again.
    assertThat(poolPods.size()).as(poolPods.toString()).isLessThanOrEqualTo(RUNS + 2 + 2);
  }

  @Test
  void aPortAnotherProgramTakesBetweenLeaseAndBindForAMomentFailsNoRun() throws Exception {
    // As each sandbox Pod appears (its port leased, its runner not yet listening), another program
    // binds its port for 1.5 s: the runner's bind meets it.
    java.util.concurrent.atomic.AtomicInteger held =
        new java.util.concurrent.atomic.AtomicInteger();
    try (Watch racing =
        other
            .local()
            .client()
            .pods()
            .inNamespace("alice")
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    if (action != Action.ADDED) {
                      return;
                    }
                    dev.threadline.operator.sandbox.SandboxPod.port(pod)
                        .ifPresent(port -> Thread.ofVirtual().start(() -> hold(port, held)));
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      for (int i = 0; i < 3; i++) {
        Run run = run(other, "{\"task\":\"Run `echo raced-" + i + "`\",\"stream\":false}");
        assertThat(run.getStatus().getPhase())
            .as("%s: %s", run.getMetadata().getName(), run.getStatus().getError())
            .isEqualTo("completed");
      }
    }
    assertThat(held.get())
        .as("the test took at least one sandbox's port before its runner")
        .isPositive();
  }

  @Test
  void aPortAnotherProgramHoldsPastTheRunnersRetriesFailsNoRun() throws Exception {
    // As each new sandbox Pod appears, another program takes its port for 30 s — longer than the
    // runner tries it (5 s): the runner gives up, and the sandbox must be made on another port.
    java.util.concurrent.atomic.AtomicInteger held =
        new java.util.concurrent.atomic.AtomicInteger();
    Set<String> seen = ConcurrentHashMap.newKeySet();
    try (Watch racing =
        other
            .local()
            .client()
            .pods()
            .inNamespace("alice")
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    // Only a Pod's first version: the one made again has the same name.
                    if (action != Action.ADDED || !seen.add(pod.getMetadata().getName())) {
                      return;
                    }
                    dev.threadline.operator.sandbox.SandboxPod.port(pod)
                        .ifPresent(
                            port -> Thread.ofVirtual().start(() -> hold(port, held, LONG_HOLD)));
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      for (int i = 0; i < 2; i++) {
        Run run = run(other, "{\"task\":\"Run `echo held-" + i + "`\",\"stream\":false}");
        assertThat(run.getStatus().getPhase())
            .as("%s: %s", run.getMetadata().getName(), run.getStatus().getError())
            .isEqualTo("completed");
      }
    }
    assertThat(held.get())
        .as("the test held at least one sandbox's port before its runner")
        .isPositive();
    // Made again on another port, said where a user looks.
    assertThat(other.local().client().v1().events().inNamespace("alice").list().getItems())
        .extracting(io.fabric8.kubernetes.api.model.Event::getReason)
        .contains("SandboxPortTaken");
  }

  private static void hold(int port, java.util.concurrent.atomic.AtomicInteger held) {
    hold(port, held, SHORT_HOLD);
  }

  private static void hold(
      int port, java.util.concurrent.atomic.AtomicInteger held, Duration howLong) {
    try (ServerSocket taker = new ServerSocket()) {
      taker.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
      held.incrementAndGet();
      Thread.sleep(howLong);
    } catch (java.io.IOException | InterruptedException tooLate) {
      // the runner listens already: nothing to race
    }
  }

  /** Posts {@code body} as alice and returns her run once it ended. */
  static Run run(LocalModeFixture local, String body) {
    HttpResponse<String> response =
        local.send(
            local
                .request(LocalModeFixture.ALICE_KEY, "/v1/threads")
                .timeout(RUN_TIME)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    try {
      String thread = JSON.readTree(response.body()).at("/thread/id").asText();
      return local
          .local()
          .client()
          .resources(Run.class)
          .inNamespace("alice")
          .withName(ThreadRuns.runName(ResourceIds.toName(thread).orElseThrow(), 1))
          .get();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(response.body(), e);
    }
  }

  private static void askForPool(LocalModeFixture local, int size) throws Exception {
    HttpResponse<String> found = local.get(LocalModeFixture.ALICE_KEY, "/environments/default");
    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    String id = JSON.readTree(found.body()).at("/environment/id").asText();
    HttpResponse<String> patched =
        local.send(
            local
                .request(LocalModeFixture.ALICE_KEY, "/environments/" + id)
                .header("Content-Type", "application/json")
                .method(
                    "PATCH",
                    HttpRequest.BodyPublishers.ofString("{\"warmPool\":{\"size\":" + size + "}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
  }
}
