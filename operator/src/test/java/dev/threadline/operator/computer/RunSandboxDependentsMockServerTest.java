package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.WarmPool;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.support.SandboxPolicies;
import dev.threadline.operator.support.StrictMockOperator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A computer run's sandbox as the Run controller's dependents (credential Secret, NetworkPolicy,
 * Pod after both), against the CRUD mock: each is made for a computer run, owned by the Run, none
 * for a direct run; all go when the run ends; a start claimed from a warm pool gets no second Pod
 * (the claimed one is adopted and goes with the run).
 */
class RunSandboxDependentsMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String CANARY = "sk-canary-dependents-41";
  private static final String NS = "deps";

  @RegisterExtension
  static final StrictMockOperator cluster =
      StrictMockOperator.withEnvironment(
          Map.of(
              "THREADLINE_WATCH_NAMESPACES",
              NS,
              "THREADLINE_WORKER_NAME",
              "operator-0",
              "THREADLINE_MODEL_API_KEY",
              CANARY,
              "THREADLINE_API_SERVER_NAMESPACE",
              "tl-system"));

  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    client = cluster.client();
  }

  @Test
  void aDirectRunGetsNoSandbox() {
    client.resource(run("thread-hello", "Hello!", null)).create();

    Run done = awaitEnded("run-hello-1");

    assertThat(done.getStatus().getRoute()).isEqualTo("direct");
    assertThat(done.getStatus().getPod()).isNull();
    assertThat(client.pods().inNamespace(NS).withLabel(Labels.RUN, "run-hello-1").list().getItems())
        .isEmpty();
    assertThat(client.secrets().inNamespace(NS).withName("run-hello-1-sandbox").get()).isNull();
    assertThat(networkPolicy("run-hello-1-egress")).isNull();
  }

  @Test
  void aComputerRunsSandboxIsMadeAsItsDependentsAndGoesWhenTheRunEnds() {
    client.resource(run("thread-deps", "Run `make`", null)).create();

    Pod pod = await().atMost(WAIT).until(() -> pod("run-deps-1"), p -> p != null);
    Secret credential = client.secrets().inNamespace(NS).withName("run-deps-1-sandbox").get();
    NetworkPolicy policy = networkPolicy("run-deps-1-egress");
    for (HasMetadata dependent : List.of(pod, credential, policy)) {
      assertThat(dependent.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Run");
            assertThat(owner.getName()).isEqualTo("run-deps-1");
            assertThat(owner.getController()).isTrue();
          });
      assertThat(dependent.getMetadata().getLabels()).containsEntry(Labels.RUN, "run-deps-1");
    }
    // No model credential in the Pod: not in its spec, not in a Secret it mounts.
    assertThat(Serialization.asJson(pod)).doesNotContain(CANARY).doesNotContain("THREADLINE_");
    assertThat(Serialization.asJson(credential))
        .doesNotContain(
            Base64.getEncoder().encodeToString(CANARY.getBytes(StandardCharsets.UTF_8)));
    assertThat(pod.getSpec().getVolumes())
        .filteredOn(volume -> volume.getSecret() != null)
        .singleElement()
        .satisfies(volume ->
            assertThat(volume.getSecret().getSecretName()).isEqualTo("run-deps-1-sandbox"));
    // Only the worker may connect, on the sandbox's port.
    SandboxPolicies.admitsOnly(
        policy,
        SandboxPod.port(pod).orElseThrow(),
        "tl-system",
        Map.entry("app.kubernetes.io/component", "operator"));
    await().atMost(WAIT).until(() -> "run-deps-1".equals(get("run-deps-1").getStatus().getPod()));
    assertThat(get("run-deps-1").getStatus().getStart()).isEqualTo(RunStatus.START_COLD);

    // The worker ends the run (here: its outcome written as the worker would).
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-deps-1")
        .editStatus(run -> {
          run.getStatus().setPhase(RunPhase.COMPLETED.value());
          run.getStatus().setCompletedAt("2026-01-01T00:00:00Z");
          return run;
        });

    awaitSandboxGone("run-deps-1", "run-deps-1");
  }

  @Test
  void aClaimedStartAdoptsThePoolsPodMakesNoSecondOneAndItGoesWithTheRun() {
    Environment environment = new Environment();
    environment.setMetadata(new ObjectMetaBuilder().withName("env-warm").withNamespace(NS).build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName("warm");
    spec.setWarmPool(new WarmPool(1));
    environment.setSpec(spec);
    client.resource(environment).create();
    Pod pooled =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    client
                        .pods()
                        .inNamespace(NS)
                        .withLabel(PoolLabels.POOL, "env-warm")
                        .withLabel(PoolLabels.STATE, PoolLabels.READY)
                        .list()
                        .getItems(),
                pods -> pods.size() == 1)
            .getFirst();
    markReady(pooled);
    await()
        .atMost(WAIT)
        .until(() -> {
          Environment current =
              client.resources(Environment.class).inNamespace(NS).withName("env-warm").get();
          return current.getStatus() != null
              && current.getStatus().getWarmPool() != null
              && current.getStatus().getWarmPool().getReady() == 1;
        });

    client.resource(run("thread-warm", "Run `make`", "env-warm")).create();

    Run claimed =
        await()
            .atMost(WAIT)
            .until(
                () -> get("run-warm-1"),
                r -> r.getStatus() != null && r.getStatus().getPod() != null);
    String podName = pooled.getMetadata().getName();
    assertThat(claimed.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
    assertThat(claimed.getStatus().getPod()).isEqualTo(podName);
    assertThat(pod("run-warm-1")).isNull();
    assertThat(client.pods().inNamespace(NS).withLabel(Labels.RUN, "run-warm-1").list().getItems())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly(podName);
    assertThat(client.secrets().inNamespace(NS).withName("run-warm-1-sandbox").get()).isNotNull();
    NetworkPolicy policy = networkPolicy("run-warm-1-egress");
    SandboxPolicies.admitsOnly(
        policy,
        SandboxPod.port(pooled).orElseThrow(),
        "tl-system",
        Map.entry("app.kubernetes.io/component", "operator"));

    // A merge patch carries no resourceVersion: it does not race the run's status writes.
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-warm-1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancelRequested\":true}}");

    assertThat(awaitEnded("run-warm-1").getStatus().getPhase())
        .isEqualTo(RunPhase.CANCELLED.value());
    awaitSandboxGone("run-warm-1", podName);
    assertThat(pod("run-warm-1")).isNull();
  }

  private static void awaitSandboxGone(String run, String podName) {
    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          assertThat(pod(podName)).isNull();
          assertThat(client.secrets().inNamespace(NS).withName(run + "-sandbox").get()).isNull();
          assertThat(networkPolicy(run + "-egress")).isNull();
        });
  }

  private static Pod pod(String name) {
    return client.pods().inNamespace(NS).withName(name).get();
  }

  private static NetworkPolicy networkPolicy(String name) {
    return client.network().v1().networkPolicies().inNamespace(NS).withName(name).get();
  }

  private static Run get(String name) {
    return client.resources(Run.class).inNamespace(NS).withName(name).get();
  }

  private static Run awaitEnded(String name) {
    return await()
        .atMost(WAIT)
        .until(
            () -> get(name),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }

  private static void markReady(Pod pod) {
    client
        .pods()
        .inNamespace(NS)
        .withName(pod.getMetadata().getName())
        .editStatus(latest -> {
          latest.setStatus(
              new PodStatusBuilder()
                  .withPhase("Running")
                  .withPodIP("127.0.0.1")
                  .withStartTime("2026-01-01T00:00:00Z")
                  .withConditions(
                      new PodConditionBuilder().withType("Ready").withStatus("True").build())
                  .build());
          return latest;
        });
  }

  private static Run run(String threadName, String message, String environment) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(threadName).withNamespace(NS).build());
    ThreadSpec spec = new ThreadSpec();
    spec.setEnvironment(environment);
    thread.setSpec(spec);
    thread = client.resource(thread).create();
    return ThreadRuns.newRun(thread, 1, message, List.of(), ThreadRuns.SOURCE_API);
  }
}
