package dev.threadline.operator.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.pool.PoolSettings;
import dev.threadline.operator.pool.WarmPoolReconciler;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.BareOperators;
import dev.threadline.operator.support.Containers;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.PoolEnvironments;
import dev.threadline.operator.support.PoolPods;
import dev.threadline.operator.support.RecordedEvents;
import dev.threadline.operator.support.SharedHistory;
import dev.threadline.operator.support.StrictStatusDispatcher;
import dev.threadline.operator.worker.SandboxException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Containers of an environment with a warm pool, against the mock server: a container claims a
 * ready pool Pod (bound to its own access token, under its own labels, owner and NetworkPolicy),
 * the pool refills, the next container gets another Pod or, with none ready, a cold start; a
 * persistent container always starts cold. The sandbox API's bind is recorded, not sent.
 */
class ContainerPoolMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String RUNNER_IMAGE = "example.test/runner:1";
  private static KubernetesMockServer server;
  private static KubernetesClient client;
  private static Operator operator;

  /** Pod name → the credential it was bound to. */
  private static final Map<String, String> bound = new ConcurrentHashMap<>();

  /** Its pool sandboxes never answer a bind. */
  private static final String UNBINDABLE = "unbindable";

  private static final AtomicInteger failedBinds = new AtomicInteger();

  private static final String HOLD =
      "{\"metadata\":{\"finalizers\":[\"test.threadline.dev/hold\"]}}";

  @BeforeAll
  static void start() {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_RUNNER_IMAGE", RUNNER_IMAGE,
                "THREADLINE_BASE_IMAGE", "base",
                "THREADLINE_BUILDER_IMAGE", "kaniko",
                "THREADLINE_REGISTRY", "registry.test/threadline"));
    Clock clock = Clock.systemUTC();
    WarmPoolReconciler pools =
        new WarmPoolReconciler(
            client,
            settings,
            PoolSettings.fromEnvironment(Map.of()),
            new SandboxPorts(settings.containers()),
            clock,
            new KubernetesEvents(clock));
    WarmPools warmPools =
        new WarmPools(
            client,
            pools,
            settings,
            new OperatorMetrics(new SimpleMeterRegistry()),
            clock,
            SharedHistory.archives(client));
    operator = BareOperators.on(client);
    operator.register(pools, ControllerConfigurationOverrider::watchingAllNamespaces);
    operator.register(
        new ContainerReconciler(
            client,
            settings,
            new Conditions(clock),
            clock,
            warmPools,
            (pod, credential) -> {
              assertThat(PoolLabels.isClaimed(pod)).isTrue();
              if (UNBINDABLE.equals(pod.getMetadata().getNamespace())) {
                failedBinds.incrementAndGet();
                throw new SandboxException("the sandbox did not answer");
              }
              assertThat(bound.putIfAbsent(pod.getMetadata().getName(), credential)).isNull();
            },
            new PoolBindRetry(Duration.ofSeconds(3), Duration.ofMillis(200)),
            new SandboxPorts(settings.containers())),
        ControllerConfigurationOverrider::watchingAllNamespaces);
    operator.start();
  }

  @AfterAll
  static void stop() {
    operator.stop();
    client.close();
    server.destroy();
  }

  @Test
  void containersClaimDistinctPoolPodsAndStartColdWhenNoneIsReady() {
    environment("claim", "env-claim", 1);
    Pod first = markReady(awaitUnclaimed("claim", "env-claim", pods -> pods.size() == 1).get(0));

    client.resource(container("claim", "ctr-a", "env-claim", false)).create();
    Container a = awaitContainer("claim", "ctr-a", c -> "running".equals(phase(c)));

    assertThat(a.getStatus().getStart()).isEqualTo(ContainerStatus.START_CLAIMED);
    assertThat(a.getStatus().getPod()).isEqualTo(first.getMetadata().getName());
    assertThat(a.getStatus().getPort()).isEqualTo(8080);
    assertThat(a.getStatus().getPodIP()).isEqualTo("127.0.0.1");
    assertThat(a.getStatus().getImage()).isEqualTo(RUNNER_IMAGE);
    Pod claimed = pod("claim", first.getMetadata().getName());
    assertThat(claimed.getMetadata().getLabels())
        .containsEntry(PoolLabels.STATE, PoolLabels.CLAIMED)
        .containsEntry("app.kubernetes.io/component", "container")
        .containsEntry("threadline.dev/container", "ctr-a");
    assertThat(claimed.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("ctr-a"));
    assertThat(claimed.getSpec().getActiveDeadlineSeconds()).isNull();
    // Bound to the container's own access token, which the api-server reads and sends.
    String token =
        SandboxCredential.read(client.secrets().inNamespace("claim").withName("ctr-a-access").get())
            .orElseThrow();
    assertThat(bound).containsEntry(first.getMetadata().getName(), token);
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace("claim").withName("ctr-a").get();
    assertThat(claimed.getMetadata().getLabels())
        .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
    // No cold Pod besides the claimed one.
    assertThat(pod("claim", "ctr-a")).isNull();

    // The pool refills; the next container gets the new Pod once it is ready, never the first.
    Pod second = markReady(awaitUnclaimed("claim", "env-claim", pods -> pods.size() == 1).get(0));
    assertThat(second.getMetadata().getName()).isNotEqualTo(first.getMetadata().getName());
    client.resource(container("claim", "ctr-b", "env-claim", false)).create();
    Container b =
        awaitContainer(
            "claim", "ctr-b", c -> c.getStatus() != null && c.getStatus().getPod() != null);
    assertThat(b.getStatus().getStart()).isEqualTo(ContainerStatus.START_CLAIMED);
    assertThat(b.getStatus().getPod()).isEqualTo(second.getMetadata().getName());

    // Refilled again but not ready yet: the third container starts cold, on a Pod of its own.
    awaitUnclaimed("claim", "env-claim", pods -> pods.size() == 1);
    client.resource(container("claim", "ctr-c", "env-claim", false)).create();
    Container c =
        awaitContainer(
            "claim", "ctr-c", x -> x.getStatus() != null && x.getStatus().getPod() != null);
    assertThat(c.getStatus().getStart()).isEqualTo(ContainerStatus.START_COLD);
    assertThat(c.getStatus().getPod()).isEqualTo("ctr-c");
    assertThat(pod("claim", "ctr-c")).isNotNull();
    assertThat(bound).hasSize(2);
  }

  @Test
  void aPersistentContainerStartsColdOnItsWorkspaceClaim() {
    environment("keep", "env-keep", 1);
    markReady(awaitUnclaimed("keep", "env-keep", pods -> pods.size() == 1).get(0));
    await()
        .atMost(WAIT)
        .until(() -> unclaimed("keep", "env-keep"), pods -> pods.stream().allMatch(ready()));

    client.resource(container("keep", "ctr-keep", "env-keep", true)).create();
    Container kept =
        awaitContainer(
            "keep", "ctr-keep", c -> c.getStatus() != null && c.getStatus().getPod() != null);

    assertThat(kept.getStatus().getStart()).isEqualTo(ContainerStatus.START_COLD);
    assertThat(kept.getStatus().getPod()).isEqualTo("ctr-keep");
    assertThat(unclaimed("keep", "env-keep")).hasSize(1);
  }

  @Test
  void aContainerWhosePoolPodCannotBeBoundGivesItUpAndStartsCold() {
    environment(UNBINDABLE, "env-unbindable", 1);
    Pod pool =
        markReady(awaitUnclaimed(UNBINDABLE, "env-unbindable", pods -> pods.size() == 1).get(0));
    String poolPod = pool.getMetadata().getName();

    client.resource(container(UNBINDABLE, "ctr-u", "env-unbindable", false)).create();
    Container waiting =
        awaitContainer(
            UNBINDABLE,
            "ctr-u",
            c ->
                c.getStatus() != null
                    && c.getStatus().getMessage() != null
                    && c.getStatus().getMessage().endsWith("trying again"));
    // Hold the pool Pod in its termination, as a kubelet stopping it would for a while.
    client
        .pods()
        .inNamespace(UNBINDABLE)
        .withName(poolPod)
        .patch(PatchContext.of(PatchType.JSON_MERGE), HOLD);
    Container cold =
        awaitContainer(
            UNBINDABLE, "ctr-u", c -> c.getStatus() != null && c.getStatus().getPod() != null);

    assertThat(waiting.getStatus().getStart()).isNull();
    assertThat(waiting.getStatus().getPhase()).isEqualTo("pending");
    assertThat(waiting.getStatus().getMessage())
        .contains(poolPod, "could not be bound: the sandbox did not answer");
    assertThat(cold.getStatus().getStart()).isEqualTo(ContainerStatus.START_COLD);
    assertThat(cold.getStatus().getPod()).isEqualTo("ctr-u");
    assertThat(pod(UNBINDABLE, "ctr-u")).isNotNull();
    assertThat(failedBinds).hasValueGreaterThan(1);
    assertThat(bound).doesNotContainKey(poolPod);
    // Given up for good: deleted, never back in the pool; the cold Pod serves meanwhile.
    await()
        .atMost(WAIT)
        .until(() -> pod(UNBINDABLE, poolPod).getMetadata().getDeletionTimestamp() != null);
    markReady(pod(UNBINDABLE, "ctr-u"));
    awaitContainer(UNBINDABLE, "ctr-u", c -> "running".equals(phase(c)));
    client
        .pods()
        .inNamespace(UNBINDABLE)
        .withName(poolPod)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    await().atMost(WAIT).until(() -> pod(UNBINDABLE, poolPod) == null);
    assertThat(RecordedEvents.about(client, UNBINDABLE, "ctr-u"))
        .anySatisfy(event -> {
          assertThat(event.getReason()).isEqualTo(ContainerReconciler.POOL_BIND_FAILED);
          assertThat(event.getType()).isEqualTo("Warning");
          assertThat(event.getMessage())
              .contains(poolPod, "the sandbox did not answer", "starting cold");
        });
  }

  private static Predicate<Pod> ready() {
    return PoolPods.running();
  }

  private static void environment(String namespace, String name, int size) {
    PoolEnvironments.create(client, namespace, name, size);
  }

  private static Container container(
      String namespace, String name, String environment, boolean persistent) {
    return Containers.of(namespace, name, environment, persistent, 600_000L);
  }

  private static Pod pod(String namespace, String name) {
    return client.pods().inNamespace(namespace).withName(name).get();
  }

  private static List<Pod> unclaimed(String namespace, String environment) {
    return PoolPods.unclaimed(client, namespace, environment);
  }

  private static List<Pod> awaitUnclaimed(
      String namespace, String environment, Predicate<List<Pod>> condition) {
    return PoolPods.awaitUnclaimed(client, namespace, environment, WAIT, condition);
  }

  private static Pod markReady(Pod pod) {
    return PoolPods.markReady(client, pod);
  }

  private static Container awaitContainer(
      String namespace, String name, Predicate<Container> condition) {
    return Containers.awaitContainer(client, namespace, name, WAIT, condition);
  }

  private static String phase(Container container) {
    return Containers.phase(container);
  }
}
