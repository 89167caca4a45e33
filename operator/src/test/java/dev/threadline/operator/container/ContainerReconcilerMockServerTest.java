package dev.threadline.operator.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.BareOperators;
import dev.threadline.operator.support.Containers;
import dev.threadline.operator.support.MutableClock;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.QuotaRefusals;
import dev.threadline.operator.support.Reconciles;
import dev.threadline.operator.support.RecordedEvents;
import dev.threadline.operator.support.SandboxPolicies;
import dev.threadline.operator.support.StatusWrites;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The container reconciler alone on fabric8's CRUD mock, with a clock the test moves. */
@EnableKubernetesMockClient(crud = true)
class ContainerReconcilerMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final String RUNNER_IMAGE = "example.test/runner:1";
  static KubernetesMockServer server;
  static KubernetesClient client;

  private final MutableClock clock = new MutableClock(Instant.now());
  private Operator operator;
  private final Reconciles reconciles = new Reconciles();

  @BeforeAll
  static void crds() {
    OperatorMockServer.registerCrds(server, client);
  }

  @BeforeEach
  void startOperator() {
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_RUNNER_IMAGE", RUNNER_IMAGE,
                "THREADLINE_BASE_IMAGE", "base",
                "THREADLINE_BUILDER_IMAGE", "kaniko",
                "THREADLINE_REGISTRY", "registry.test/threadline",
                "THREADLINE_BUILD_TIMEOUT_SECONDS", "300"));
    operator = BareOperators.on(client, reconciles);
    operator.register(
        new ContainerReconciler(client, settings, new Conditions(clock), clock),
        ControllerConfigurationOverrider::watchingAllNamespaces);
    operator.start();
  }

  @AfterEach
  void stopOperator() {
    operator.stop();
  }

  @Test
  void ephemeralContainerGetsALockedDownPodServingItsFileApi() {
    client.resource(container("eph", "ctr-files", false, 600_000L)).create();

    Pod pod =
        await()
            .atMost(WAIT)
            .until(
                () -> client.pods().inNamespace("eph").withName("ctr-files").get(), p -> p != null);
    PodSpec spec = pod.getSpec();
    assertThat(pod.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/component", "container")
        .containsEntry("threadline.dev/container", "ctr-files");
    assertThat(pod.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Container"));
    assertThat(spec.getAutomountServiceAccountToken()).isFalse();
    assertThat(spec.getEnableServiceLinks()).isFalse();
    assertThat(spec.getRestartPolicy()).isEqualTo("Always");
    assertThat(spec.getActiveDeadlineSeconds()).isNull();
    assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(spec.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
    assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(spec.getContainers())
        .singleElement()
        .satisfies(runner -> {
          assertThat(runner.getImage()).isEqualTo(RUNNER_IMAGE);
          assertThat(runner.getCommand()).containsExactly("/opt/threadline/bin/runner");
          assertThat(runner.getArgs())
              .containsExactly(
                  "serve",
                  "--workspace",
                  "/workspace",
                  "--port",
                  "8080",
                  "--address",
                  "0.0.0.0",
                  "--token-file",
                  "/var/run/threadline/access/token");
          assertThat(runner.getPorts())
              .singleElement()
              .satisfies(port -> assertThat(port.getContainerPort()).isEqualTo(8080));
          assertThat(runner.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
          assertThat(runner.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
          assertThat(runner.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
          assertThat(runner.getSecurityContext().getCapabilities().getDrop())
              .containsExactly("ALL");
          assertThat(runner.getEnv())
              .noneMatch(env -> env.getName().startsWith("THREADLINE_MODEL"));
        });
    assertThat(spec.getVolumes())
        .extracting(Volume::getName)
        .containsExactly("access", "workspace", "tmp");
    assertThat(spec.getVolumes().get(0).getSecret().getSecretName()).isEqualTo("ctr-files-access");
    // Ephemeral storage is bounded: the workspace and /tmp emptyDirs, and the container's share.
    assertThat(spec.getVolumes().get(1).getEmptyDir().getSizeLimit())
        .isEqualTo(new Quantity("1Gi"));
    assertThat(spec.getVolumes().get(2).getEmptyDir().getSizeLimit())
        .isEqualTo(new Quantity("1Gi"));
    assertThat(spec.getContainers().get(0).getResources().getLimits())
        .containsKey("ephemeral-storage");
    Secret access = client.secrets().inNamespace("eph").withName("ctr-files-access").get();
    assertThat(access.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("ctr-files"));
    assertThat(access.getData()).containsKey("token");
    assertThat(client.persistentVolumeClaims().inNamespace("eph").list().getItems()).isEmpty();
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace("eph").withName("ctr-files").get();
    assertThat(policy.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("ctr-files"));
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(pod.getMetadata().getLabels());
    // Internet access still leaves out link-local (cloud metadata) and the cluster's ranges.
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getEgress()).isEqualTo(EgressRules.internet(ClusterNetwork.none()));
    SandboxPolicies.admitsOnly(
        policy, 8080, "threadline-system", Map.entry("app.kubernetes.io/component", "api-server"));

    Container pending = awaitContainer("eph", "ctr-files", c -> "pending".equals(phase(c)));
    assertThat(pending.getStatus().getPort()).isEqualTo(8080);
    assertThat(pending.getStatus().getLastActivityAt())
        .isEqualTo(Timestamps.normalize(pending.getMetadata().getCreationTimestamp()));

    markRunning("eph", "ctr-files", false);
    awaitContainer("eph", "ctr-files", c -> "starting".equals(phase(c)));
    markRunning("eph", "ctr-files", true);
    Container running = awaitContainer("eph", "ctr-files", c -> "running".equals(phase(c)));
    assertThat(running.getStatus().getPodIP()).isEqualTo("10.1.2.3");
    assertThat(running.getStatus().getPod()).isEqualTo("ctr-files");
    assertThat(running.getStatus().getConditions())
        .anySatisfy(condition -> {
          assertThat(condition.getType()).isEqualTo("Ready");
          assertThat(condition.getStatus()).isEqualTo("True");
        });
  }

  @Test
  void ephemeralContainerIsDeletedOnceUnusedForItsTimeout() {
    client.resource(container("expiry", "ctr-short", false, 2_000L)).create();
    awaitContainer(
        "expiry", "ctr-short", c -> c.getStatus() != null && c.getStatus().getPort() != null);

    // The operator's clock stands still: the container outlives its two seconds of real time.
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() ->
            client.resources(Container.class).inNamespace("expiry").withName("ctr-short").get()
                != null);

    clock.advance(Duration.ofMinutes(1));
    await()
        .atMost(WAIT)
        .until(() ->
            client.resources(Container.class).inNamespace("expiry").withName("ctr-short").get()
                == null);
  }

  @Test
  void persistentContainerKeepsItsClaimOutlivesItsTimeoutAndGetsANewPodWhenItsPodEnds() {
    client.resource(container("keep", "ctr-keep", true, 1_000L)).create();

    Pod first =
        await()
            .atMost(WAIT)
            .until(
                () -> client.pods().inNamespace("keep").withName("ctr-keep").get(), p -> p != null);
    assertThat(first.getSpec().getVolumes())
        .filteredOn(volume -> volume.getName().equals("workspace"))
        .singleElement()
        .satisfies(volume ->
            assertThat(volume.getPersistentVolumeClaim().getClaimName())
                .isEqualTo("ctr-keep-workspace"));
    PersistentVolumeClaim claim =
        client.persistentVolumeClaims().inNamespace("keep").withName("ctr-keep-workspace").get();
    assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(claim.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Container"));

    clock.advance(Duration.ofDays(2));
    client
        .pods()
        .inNamespace("keep")
        .withName("ctr-keep")
        .editStatus(pod -> {
          pod.setStatus(new PodStatusBuilder().withPhase("Failed").withReason("Evicted").build());
          return pod;
        });

    await()
        .atMost(WAIT)
        .until(() -> {
          Pod next = client.pods().inNamespace("keep").withName("ctr-keep").get();
          return next != null && !next.getMetadata().getUid().equals(first.getMetadata().getUid());
        });
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(4))
        .until(() ->
            client.resources(Container.class).inNamespace("keep").withName("ctr-keep").get()
                != null);
    assertThat(
            client
                .persistentVolumeClaims()
                .inNamespace("keep")
                .withName("ctr-keep-workspace")
                .get())
        .isNotNull();
  }

  @Test
  void containerNamingAMissingEnvironmentFails() {
    Container container = container("noenv", "ctr-noenv", false, 600_000L);
    container.getSpec().setEnvironment("env-gone");
    client.resource(container).create();

    Container failed = awaitContainer("noenv", "ctr-noenv", c -> "failed".equals(phase(c)));
    assertThat(failed.getStatus().getMessage()).isEqualTo("Environment env-gone does not exist");
    assertThat(RecordedEvents.about(client, "noenv", "ctr-noenv"))
        .singleElement()
        .satisfies(event -> {
          assertThat(event.getType()).isEqualTo("Warning");
          assertThat(event.getReason()).isEqualTo("SandboxStartFailed");
          assertThat(event.getMessage()).isEqualTo("Environment env-gone does not exist");
          assertThat(event.getInvolvedObject().getKind()).isEqualTo("Container");
        });
    assertThat(client.pods().inNamespace("noenv").withName("ctr-noenv").get()).isNull();
  }

  @Test
  void containerWhosePodAQuotaRefusesWaitsForRoomThenStarts() {
    QuotaRefusals.refusePods(server, "quota", "ctr-quota", 2);
    client.resource(container("quota", "ctr-quota", false, 600_000L)).create();

    Container waiting =
        awaitContainer(
            "quota",
            "ctr-quota",
            c ->
                c.getStatus() != null
                    && c.getStatus().getMessage() != null
                    && c.getStatus().getMessage().startsWith("waiting for room"));
    assertThat(phase(waiting)).isEqualTo("pending");
    assertThat(waiting.getStatus().getMessage())
        .isEqualTo(
            "waiting for room in the namespace's quota: " + QuotaRefusals.refusal("ctr-quota"));
    // The Event is recorded after the status write that says so.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.reasons(client, "quota", "ctr-quota")).contains("QuotaWait"));

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> client.pods().inNamespace("quota").withName("ctr-quota").get() != null);
  }

  @Test
  void workflowMakesEveryObjectThePolicyBeforeThePodAndDropsTheClaimOnceNotPersistent() {
    client.resource(container("flow", "ctr-flow", true, 600_000L)).create();

    Pod pod =
        await()
            .atMost(WAIT)
            .until(
                () -> client.pods().inNamespace("flow").withName("ctr-flow").get(), p -> p != null);
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace("flow").withName("ctr-flow").get();
    Secret access = client.secrets().inNamespace("flow").withName("ctr-flow-access").get();
    assertThat(access).isNotNull();
    assertThat(
            client
                .persistentVolumeClaims()
                .inNamespace("flow")
                .withName("ctr-flow-workspace")
                .get())
        .isNotNull();
    // The Pod depends on its NetworkPolicy and Secret: both were written before it.
    assertThat(Long.parseLong(policy.getMetadata().getResourceVersion()))
        .isLessThan(Long.parseLong(pod.getMetadata().getResourceVersion()));
    assertThat(Long.parseLong(access.getMetadata().getResourceVersion()))
        .isLessThan(Long.parseLong(pod.getMetadata().getResourceVersion()));

    client
        .resources(Container.class)
        .inNamespace("flow")
        .withName("ctr-flow")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"persistent\":false}}");

    await()
        .atMost(WAIT)
        .until(() ->
            client.persistentVolumeClaims().inNamespace("flow").withName("ctr-flow-workspace").get()
                == null);
  }

  @Test
  void networkPolicyFollowsTheContainersEnvironmentAndADeletedSecretIsMadeAgain() {
    Environment closed = new Environment();
    closed.setMetadata(new ObjectMetaBuilder().withNamespace("net").withName("env-closed").build());
    EnvironmentSpec closedSpec = new EnvironmentSpec();
    closedSpec.setInternetAccess(false);
    closed.setSpec(closedSpec);
    client.resource(closed).create();
    client.resource(container("net", "ctr-net", false, 600_000L)).create();
    await()
        .atMost(WAIT)
        .until(() -> reachesInternet(policy("net", "ctr-net")), Boolean.TRUE::equals);

    client
        .resources(Container.class)
        .inNamespace("net")
        .withName("ctr-net")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"environment\":\"env-closed\"}}");
    await()
        .atMost(WAIT)
        .until(() -> reachesInternet(policy("net", "ctr-net")), Boolean.FALSE::equals);

    String first =
        client.secrets().inNamespace("net").withName("ctr-net-access").get().getMetadata().getUid();
    client.secrets().inNamespace("net").withName("ctr-net-access").delete();
    await()
        .atMost(WAIT)
        .until(
            () -> client.secrets().inNamespace("net").withName("ctr-net-access").get(),
            secret -> secret != null && !secret.getMetadata().getUid().equals(first));
  }

  @Test
  void statusIsWrittenAtMostOncePerReconcileAndOnlyWhenItChanged() throws InterruptedException {
    StatusWrites writes = new StatusWrites(server);
    String path = "/apis/threadline.dev/v1alpha1/namespaces/count/containers/ctr-count";
    client.resource(container("count", "ctr-count", false, 600_000L)).create();
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace("count").withName("ctr-count").get() != null);
    markRunning("count", "ctr-count", true);
    awaitContainer("count", "ctr-count", c -> "running".equals(phase(c)));
    int settled = awaitSettled("count", "ctr-count");

    long written = writes.to(path);
    assertThat(written).isPositive().isLessThanOrEqualTo(settled);

    // A reconcile that finds nothing new writes nothing.
    client
        .pods()
        .inNamespace("count")
        .withName("ctr-count")
        .edit(pod -> {
          pod.getMetadata().setAnnotations(Map.of("touched", "yes"));
          return pod;
        });
    await().atMost(WAIT).until(() -> reconciles.of("Container", "count", "ctr-count") > settled);
    awaitSettled("count", "ctr-count");
    assertThat(writes.to(path)).isEqualTo(written);
  }

  /** Waits until the container's reconciles stop; returns how many there were. */
  private int awaitSettled(String namespace, String name) {
    return reconciles.awaitSettled("Container", namespace, name);
  }

  private static NetworkPolicy policy(String namespace, String name) {
    return client.network().v1().networkPolicies().inNamespace(namespace).withName(name).get();
  }

  private static boolean reachesInternet(NetworkPolicy policy) {
    return policy != null
        && policy.getSpec().getEgress().stream()
            .flatMap(rule -> rule.getTo().stream())
            .anyMatch(peer ->
                peer.getIpBlock() != null && "0.0.0.0/0".equals(peer.getIpBlock().getCidr()));
  }

  private static Container container(
      String namespace, String name, boolean persistent, long timeoutMs) {
    return Containers.of(namespace, name, null, persistent, timeoutMs);
  }

  private static void markRunning(String namespace, String name, boolean ready) {
    client
        .pods()
        .inNamespace(namespace)
        .withName(name)
        .editStatus(pod -> {
          pod.setStatus(
              new PodStatusBuilder()
                  .withPhase("Running")
                  .withPodIP("10.1.2.3")
                  .withConditions(
                      new PodConditionBuilder()
                          .withType("Ready")
                          .withStatus(ready ? "True" : "False")
                          .build())
                  .build());
          return pod;
        });
  }

  private static Container awaitContainer(
      String namespace, String name, Predicate<Container> condition) {
    return Containers.awaitContainer(client, namespace, name, WAIT, condition);
  }

  private static String phase(Container container) {
    return Containers.phase(container);
  }
}
