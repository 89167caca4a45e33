package dev.threadline.operator.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.support.PoolEnvironments;
import dev.threadline.operator.support.PoolPods;
import dev.threadline.operator.support.QuotaRefusals;
import dev.threadline.operator.support.RecordedEvents;
import dev.threadline.operator.support.SharedHistory;
import dev.threadline.operator.support.StrictMockOperator;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Warm pools against the CRUD mock: filled to size, exclusive claims under concurrency, refill
 * after a claim, a roll to a rebuilt image, cleanup of an inactive environment's pool, and a quota
 * that refuses pool Pods for a while.
 */
class WarmPoolMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String RUNNER_IMAGE = "threadline/runner:test";

  @RegisterExtension
  static final StrictMockOperator cluster =
      StrictMockOperator.withEnvironment(
          Map.of(
              "THREADLINE_WATCH_NAMESPACES", "fill,claims,refill,roll,gone,quota",
              "THREADLINE_WORKER_NAME", "operator-0",
              "THREADLINE_RUNNER_IMAGE", RUNNER_IMAGE));

  private static KubernetesMockServer server;
  private static KubernetesClient client;
  private static ThreadlineOperator operator;
  private static OperatorSettings settings;

  @BeforeAll
  static void start() {
    server = cluster.server();
    client = cluster.client();
    operator = cluster.operator();
    settings = cluster.settings();
  }

  @Test
  void aPoolIsFilledToItsSizeWithUnboundLockedDownSandboxes() {
    environment("fill", "env-fill", 3);

    List<Pod> pool = awaitUnclaimed("fill", "env-fill", pods -> pods.size() == 3);

    for (Pod pod : pool) {
      var container = pod.getSpec().getContainers().getFirst();
      assertThat(container.getImage()).isEqualTo(RUNNER_IMAGE);
      assertThat(container.getArgs()).contains("serve", "--bind-token-file");
      assertThat(container.getArgs()).doesNotContain("--token-file");
      assertThat(container.getEnv()).extracting(e -> e.getName()).containsExactly("HOME");
      assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
      assertThat(pod.getSpec().getActiveDeadlineSeconds()).isNull();
      assertThat(pod.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Environment"));
    }
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace("fill").withName("env-fill-pool").get();
    assertThat(policy.getSpec().getPolicyTypes()).contains("Ingress", "Egress");
    assertThat(policy.getSpec().getEgress()).isEmpty();
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsEntry(PoolLabels.STATE, PoolLabels.READY);
    assertThat(client.secrets().inNamespace("fill").withName("env-fill-pool").get()).isNotNull();

    pool.forEach(WarmPoolMockServerTest::markReady);
    await()
        .atMost(WAIT)
        .until(() -> warmPool("fill", "env-fill"), s -> s != null && s.getReady() == 3);
    assertThat(warmPool("fill", "env-fill").getImage()).isEqualTo(RUNNER_IMAGE);
  }

  @Test
  void twentyConcurrentClaimsNeverShareASandbox() throws Exception {
    Environment environment = environment("claims", "env-claims", 5);
    List<Pod> pool = awaitUnclaimed("claims", "env-claims", pods -> pods.size() == 5);
    pool.forEach(WarmPoolMockServerTest::markReady);
    // Every claimant works from the same snapshot, as twenty reconciles reading one cache would.
    List<Pod> snapshot =
        awaitUnclaimed(
            "claims", "env-claims", pods -> pods.size() == 5 && pods.stream().allMatch(ready()));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    WarmPools claims =
        new WarmPools(
            client,
            (namespace, name, image) -> snapshot,
            settings,
            new OperatorMetrics(registry),
            Clock.systemUTC(),
            SharedHistory.archives(client));
    AgentEnvironment resolved = AgentEnvironment.of(environment, "registry.local", RUNNER_IMAGE);

    List<Callable<Optional<Pod>>> tasks = new ArrayList<>();
    Set<String> guarded = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 20; i++) {
      Run run = run("claims", "thread-c" + i, "env-claims");
      tasks.add(
          () -> claims.claim(run, resolved, port -> guarded.add(run.getMetadata().getName())));
    }
    List<Pod> won = new ArrayList<>();
    try (ExecutorService pool20 = Executors.newFixedThreadPool(20)) {
      for (Future<Optional<Pod>> result : pool20.invokeAll(tasks)) {
        result.get().ifPresent(won::add);
      }
    }

    assertThat(won).hasSize(5);
    assertThat(won.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet()))
        .hasSize(5);
    for (Pod pod : won) {
      Pod stored = client.pods().inNamespace("claims").withName(pod.getMetadata().getName()).get();
      assertThat(stored.getMetadata().getLabels())
          .containsEntry(PoolLabels.STATE, PoolLabels.CLAIMED)
          .containsEntry("app.kubernetes.io/component", "agent")
          .containsEntry(
              "threadline.dev/run", pod.getMetadata().getLabels().get("threadline.dev/run"));
      assertThat(stored.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Run"));
      assertThat(stored.getSpec().getActiveDeadlineSeconds()).isPositive();
    }
    assertThat(
            won.stream()
                .map(p -> p.getMetadata().getLabels().get("threadline.dev/run"))
                .collect(Collectors.toSet()))
        .hasSize(5);
    // Each claimant guarded its sandbox (credential, NetworkPolicy) before it tried a claim.
    assertThat(guarded)
        .containsAll(
            won.stream().map(p -> p.getMetadata().getLabels().get("threadline.dev/run")).toList());
    // Their runs do not exist, so nothing ends them: the pool's status counts the five claimed.
    await()
        .atMost(WAIT)
        .until(() -> warmPool("claims", "env-claims"), s -> s != null && s.getClaimed() == 5);
    assertThat(registry.counter("threadline_warm_pool_claims", "outcome", "hit").count())
        .isEqualTo(5);
    assertThat(registry.counter("threadline_warm_pool_claims", "outcome", "miss").count())
        .isEqualTo(15);
  }

  @Test
  void aClaimedSandboxLeavesThePoolForGoodAndThePoolRefills() {
    environment("refill", "env-refill", 2);
    awaitUnclaimed("refill", "env-refill", pods -> pods.size() == 2)
        .forEach(WarmPoolMockServerTest::markReady);
    awaitUnclaimed(
        "refill", "env-refill", pods -> pods.size() == 2 && pods.stream().allMatch(ready()));

    Run run = client.resource(run("refill", "thread-r", "env-refill")).create();

    Run started =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    client
                        .resources(Run.class)
                        .inNamespace("refill")
                        .withName(run.getMetadata().getName())
                        .get(),
                r -> r.getStatus() != null && r.getStatus().getStart() != null);
    assertThat(started.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
    assertThat(started.getStatus().getPod()).startsWith("pool-env-refill-");
    awaitUnclaimed("refill", "env-refill", pods -> pods.size() == 2);
    assertThat(unclaimed("refill", "env-refill"))
        .extracting(p -> p.getMetadata().getName())
        .doesNotContain(started.getStatus().getPod());
    // What kubectl describe shows: the run's route and claimed sandbox, the pool's refills.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.reasons(client, "refill", run.getMetadata().getName()))
                .startsWith("Routed", "SandboxClaimed"));
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.about(client, "refill", "env-refill"))
                .filteredOn(e -> "PoolRefilled".equals(e.getReason()))
                .extracting(e -> e.getMessage())
                .contains(
                    "Started 2 warm pool sandboxes (pool size 2) with image " + RUNNER_IMAGE,
                    "Started 1 warm pool sandbox (pool size 2) with image " + RUNNER_IMAGE));
    // The run fails at once (no sandbox answers in the mock) and its Pod may go before the pool's
    // status counted it: the status follows the Pods (the claimed count is shown in the next test).
    await()
        .atMost(WAIT)
        .until(
            () -> warmPool("refill", "env-refill"),
            s ->
                s != null && s.getClaimed() == claimedPods("refill", started.getStatus().getPod()));
  }

  private static int claimedPods(String namespace, String name) {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    return pod != null && PoolLabels.isClaimed(pod) ? 1 : 0;
  }

  @Test
  void aRebuiltImageReplacesThePoolsSandboxes() {
    environment("roll", "env-roll", 2);
    List<Pod> old = awaitUnclaimed("roll", "env-roll", pods -> pods.size() == 2);

    // A patch, not an update by resourceVersion: the pool controller writes the status meanwhile.
    client
        .resources(Environment.class)
        .inNamespace("roll")
        .withName("env-roll")
        .editStatus(built -> {
          built.getStatus().setBuildStatus(BuildStatus.READY);
          built.getStatus().setImageTag("env-roll:abc123");
          return built;
        });

    List<Pod> rolled =
        awaitUnclaimed(
            "roll",
            "env-roll",
            pods ->
                pods.size() == 2
                    && pods.stream()
                        .allMatch(p ->
                            p.getSpec()
                                .getContainers()
                                .getFirst()
                                .getImage()
                                .endsWith("env-roll:abc123")));
    assertThat(rolled)
        .extracting(p -> p.getMetadata().getName())
        .doesNotContainAnyElementsOf(old.stream().map(p -> p.getMetadata().getName()).toList());
  }

  @Test
  void anInactiveEnvironmentsPoolGoes() {
    environment("gone", "env-gone", 2);
    awaitUnclaimed("gone", "env-gone", pods -> pods.size() == 2);

    client
        .resources(Environment.class)
        .inNamespace("gone")
        .withName("env-gone")
        // No resourceVersion: the operator writes the pool's status meanwhile.
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"isActive\":false}}");

    awaitUnclaimed("gone", "env-gone", List::isEmpty);
  }

  @Test
  void poolPodsRefusedByTheQuotaWaitAndComeWhenThereIsRoom() {
    QuotaRefusals.refusePods(server, "quota", "pool", 2);
    environment("quota", "env-quota", 1);

    awaitUnclaimed("quota", "env-quota", pods -> pods.size() == 1);
  }

  private static Predicate<Pod> ready() {
    return PoolPods.running();
  }

  @Test
  void aThreadThatRanColdKeepsItsFilesForAClaimWhenItsEnvironmentHasAPool() {
    environment("archives", "env-pooled", 2);
    environment("archives", "env-plain", 0);
    WorkspaceArchives archives = SharedHistory.archives(client);
    Run cold = run("archives", "thread-cold", "env-pooled");
    cold.setStatus(new RunStatus());
    cold.getStatus().setStart(RunStatus.START_COLD);
    // Its first run started cold (the pool was empty): its files are on its workspace claim.
    client
        .resource(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(AgentObjects.workspaceClaimName("thread-cold"))
                .withNamespace("archives")
                .endMetadata()
                .build())
        .create();
    assertThat(archives.claimable("archives", "thread-cold")).isFalse();

    assertThat(archives.keeps(cold)).isTrue();
    archives.write("archives", "thread-cold", new byte[] {'P', 'K', 5, 6});
    assertThat(archives.claimable("archives", "thread-cold")).isTrue();

    // Without a pool, a cold thread keeps its claim only, as before.
    Run plain = run("archives", "thread-plain", "env-plain");
    plain.setStatus(new RunStatus());
    plain.getStatus().setStart(RunStatus.START_COLD);
    assertThat(archives.keeps(plain)).isFalse();
    plain.getStatus().setStart(RunStatus.START_CLAIMED);
    assertThat(archives.keeps(plain)).isTrue();
  }

  private static Environment environment(String namespace, String name, int size) {
    return PoolEnvironments.create(client, namespace, name, size);
  }

  private static dev.threadline.crds.environment.WarmPoolStatus warmPool(
      String namespace, String name) {
    Environment environment =
        client.resources(Environment.class).inNamespace(namespace).withName(name).get();
    return environment.getStatus() == null ? null : environment.getStatus().getWarmPool();
  }

  private static List<Pod> unclaimed(String namespace, String environment) {
    return PoolPods.unclaimed(client, namespace, environment);
  }

  private static List<Pod> awaitUnclaimed(
      String namespace, String environment, Predicate<List<Pod>> condition) {
    return PoolPods.awaitUnclaimed(client, namespace, environment, WAIT, condition);
  }

  private static void markReady(Pod pod) {
    PoolPods.markReady(client, pod);
  }

  private static Run run(String namespace, String threadName, String environment) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder().withName(threadName).withNamespace(namespace).build());
    ThreadSpec spec = new ThreadSpec();
    spec.setEnvironment(environment);
    thread.setSpec(spec);
    thread = client.resource(thread).create();
    Run run = ThreadRuns.newRun(thread, 1, "Run `make`", List.of(), ThreadRuns.SOURCE_API);
    run.getMetadata().setUid(java.util.UUID.randomUUID().toString());
    return run;
  }
}
