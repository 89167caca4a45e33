package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.BuildRequest;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.TestBuildRequest;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.ControllerReconciles;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.RecordedEvents;
import dev.threadline.operator.support.StatusWrites;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Environment reconciler against fabric8's CRUD mock: builds as Kaniko Jobs, their outcomes as
 * status.
 */
class EnvironmentReconcilerMockServerTest {
  private static final String NS = "default";
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final OperatorSettings SETTINGS =
      OperatorSettings.fromEnvironment(
          Map.of(
              "THREADLINE_REGISTRY", "registry.example.com/tl",
              "THREADLINE_REGISTRY_PUSH_SECRET", "registry-push",
              "THREADLINE_BUILD_TIMEOUT_SECONDS", "600"));

  private static PodLogDispatcher dispatcher;
  private static KubernetesMockServer server;
  private static NamespacedKubernetesClient client;
  private static ThreadlineOperator operator;
  private static ControllerReconciles reconciles;

  /** The controllers that write an Environment's status (see docs/operator-status.md). */
  private static final String[] STATUS_WRITERS = {"environment", "warm-pool", "build-webhooks"};

  @BeforeAll
  static void start() {
    dispatcher = new PodLogDispatcher();
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    operator = ThreadlineOperator.start(client, SETTINGS);
    reconciles = ControllerReconciles.of(operator);
  }

  @AfterAll
  static void stop() {
    operator.close();
    client.close();
    server.destroy();
  }

  @Test
  void createdEnvironmentIsPendingWithTheHashOfItsConfiguration() {
    create("env-fresh", spec -> {});

    EnvironmentStatus status =
        awaitStatus("env-fresh", s -> s.getBuildStatus() == BuildStatus.PENDING);

    assertThat(status.getBuildHash()).matches("[0-9a-f]{16}");
    assertThat(status.getImageTag()).isNull();
    assertThat(status.getConditions())
        .singleElement()
        .satisfies(c ->
            assertThat(List.of(c.getType(), c.getStatus(), c.getReason()))
                .containsExactly("Ready", "False", "NotBuilt"));
    assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems())
        .noneMatch(job -> job.getMetadata().getName().startsWith("env-fresh-"));
  }

  @Test
  void statusIsWrittenAtMostOncePerReconcileAndOnlyWhenItChanged() throws InterruptedException {
    StatusWrites writes = new StatusWrites(server);
    String path = "/apis/threadline.dev/v1alpha1/namespaces/" + NS + "/environments/env-writes";
    long before = reconciles.awaitSettled(STATUS_WRITERS);
    String jobName = builtSuccessfully("env-writes", "w1");
    long settled = reconciles.awaitSettled(STATUS_WRITERS);

    // Each writer of the status writes at most once per reconcile.
    long written = writes.to(path);
    assertThat(written).isPositive().isLessThanOrEqualTo(settled - before);

    // A reconcile that finds nothing new (its build Job touched) writes nothing.
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(NS)
        .withName(jobName)
        .edit(job -> {
          job.getMetadata().getAnnotations().put("touched", "yes");
          return job;
        });
    await().atMost(WAIT).until(() -> reconciles.of(STATUS_WRITERS) > settled);
    reconciles.awaitSettled(STATUS_WRITERS);
    assertThat(writes.to(path)).isEqualTo(written);
  }

  @Test
  void buildRequestStartsOneKanikoJobThatSucceedsIntoReady() {
    create(
        "env-web",
        spec -> {
          spec.setRuntimes(Map.of("python", "3.12"));
          spec.setBuildRequest(new BuildRequest("r1", false));
        });

    EnvironmentStatus building =
        awaitStatus("env-web", s -> s.getBuildStatus() == BuildStatus.BUILDING);
    String jobName = building.getBuildJob();
    assertThat(jobName).isEqualTo("env-web-build-" + building.getBuildHash() + "-r1");
    Job job = client.batch().v1().jobs().inNamespace(NS).withName(jobName).get();
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(600L);
    assertThat(job.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("env-web"));
    assertThat(job.getMetadata().getLabels())
        .containsEntry(EnvironmentValues.ENVIRONMENT_LABEL, "env-web")
        .containsEntry(EnvironmentValues.BUILD_KIND_LABEL, "build")
        .containsEntry(EnvironmentValues.BUILD_HASH_LABEL, building.getBuildHash());
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    String destination = "registry.example.com/tl/default/env-web:" + building.getBuildHash();
    // The build step (the tenant's RUN steps) has no credentials: it writes a tarball.
    Container kaniko = pod.getInitContainers().get(0);
    assertThat(kaniko.getImage()).isEqualTo(SETTINGS.builderImage());
    assertThat(kaniko.getArgs())
        .containsExactly(
            "--dockerfile=/workspace/Dockerfile",
            "--context=dir:///workspace",
            "--no-push",
            "--destination=" + destination,
            "--tar-path=/output/image.tar",
            "--cache=false");
    assertThat(kaniko.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactly("/workspace", "/output");
    assertThat(kaniko.getResources().getLimits())
        .containsEntry("cpu", new Quantity("2"))
        .containsEntry("memory", new Quantity("4Gi"))
        .containsEntry("ephemeral-storage", new Quantity("10Gi"));
    assertThat(kaniko.getResources().getRequests()).containsKey("ephemeral-storage");
    // The push step runs no tenant code and alone holds the push Secret.
    Container push = pod.getContainers().get(0);
    assertThat(pod.getContainers()).hasSize(1);
    assertThat(push.getImage()).isEqualTo(BuildPodSettings.DEFAULT_PUSHER_IMAGE);
    assertThat(push.getArgs())
        .containsExactly(
            "push", "/output/image.tar", destination, "--image-refs=/dev/termination-log");
    assertThat(push.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactly("/output", "/kaniko/.docker");
    assertThat(push.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(push.getResources().getLimits()).containsKey("ephemeral-storage");
    assertThat(pod.getVolumes())
        .extracting(Volume::getName)
        .containsExactly("build-context", "output", "docker-config");
    assertThat(pod.getVolumes().get(0).getConfigMap().getName()).isEqualTo(jobName);
    assertThat(pod.getVolumes().get(1).getEmptyDir().getSizeLimit()).isNotNull();
    assertThat(pod.getVolumes().get(2).getSecret().getSecretName()).isEqualTo("registry-push");
    // Its own NetworkPolicy: nothing in, DNS and the internet outside the cluster's ranges out.
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace(NS).withName(jobName).get();
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsExactly(Map.entry("threadline.dev/build-job", jobName));
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("threadline.dev/build-job", jobName);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getIngress()).isEmpty();
    assertThat(policy.getSpec().getEgress())
        .isEqualTo(EgressRules.tcpTo(List.of(), List.of(80, 443), ClusterNetwork.none()));
    ConfigMap context = client.configMaps().inNamespace(NS).withName(jobName).get();
    assertThat(context.getData().get("Dockerfile"))
        .contains("build hash " + building.getBuildHash())
        .startsWith("FROM " + SETTINGS.baseImage());

    finishJob(
        jobName,
        true,
        null,
        "INFO built\n",
        "pushed registry.example.com/tl/default/env-web\n",
        "registry.example.com/tl/default/env-web@sha256:cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd\n");

    EnvironmentStatus ready = awaitStatus("env-web", s -> s.getBuildStatus() == BuildStatus.READY);
    assertThat(ready.getImageTag()).isEqualTo("env-web:" + building.getBuildHash());
    assertThat(ready.getImageDigest())
        .isEqualTo("sha256:cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd");
    assertThat(ready.getLastBuildAt()).endsWith("Z");
    assertThat(ready.getBuildError()).isNull();
    assertThat(ready.getConditions())
        .singleElement()
        .satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(
                    client
                        .configMaps()
                        .inNamespace(NS)
                        .withName("env-web-build-logs")
                        .get()
                        .getData())
                .containsEntry(
                    "build.log", "INFO built\npushed registry.example.com/tl/default/env-web\n"));

    // The same configuration is up to date: a new request builds nothing unless forced.
    requestBuild("env-web", "r2", false);
    awaitStatus(
        "env-web",
        s -> "r2".equals(s.getBuildRequestId()) && s.getBuildStatus() == BuildStatus.READY);
    assertThat(buildJobsOf("env-web")).hasSize(1);
    requestBuild("env-web", "r3", true);
    EnvironmentStatus forced =
        awaitStatus(
            "env-web",
            s -> "r3".equals(s.getBuildRequestId()) && s.getBuildStatus() == BuildStatus.BUILDING);
    assertThat(forced.getBuildJob()).endsWith("-r3");
    // The finished older Job is cleaned up; the running one stays.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(buildJobsOf("env-web"))
                .extracting(j -> j.getMetadata().getName())
                .containsExactly(forced.getBuildJob()));
  }

  @Test
  void failedBuildIsClassifiedFromTheBuildPodsLog() {
    create(
        "env-missing",
        spec -> {
          spec.getPackages().setSystem(List.of("no-such-package"));
          spec.setBuildRequest(new BuildRequest("r1", false));
        });
    String jobName =
        awaitStatus("env-missing", s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();

    finishJob(
        jobName,
        false,
        null,
        "Step 3/9 : RUN apt-get install\nE: Unable to locate package no-such-package\n");

    EnvironmentStatus failed =
        awaitStatus("env-missing", s -> s.getBuildStatus() == BuildStatus.FAILED);
    assertThat(failed.getBuildError()).isEqualTo("Package not found");
    // kstatus reads a failed build as stalled: nothing changes until the spec or a request does.
    assertThat(failed.getConditions())
        .extracting(c -> List.of(c.getType(), c.getStatus(), c.getReason(), c.getMessage()))
        .containsExactly(
            List.of("Ready", "False", "BuildFailed", "Package not found"),
            List.of("Stalled", "True", "BuildFailed", "Package not found"));
    // Events are written in the background, after the status that says so.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.about(client, NS, "env-missing"))
                .extracting(event -> List.of(event.getType(), event.getReason()))
                .containsExactly(
                    List.of("Normal", "BuildStarted"), List.of("Warning", "BuildFailed")));
    assertThat(RecordedEvents.about(client, NS, "env-missing").get(1).getMessage())
        .isEqualTo("Package not found");

    // A new request after a failure builds again; the old error is gone from the status.
    requestBuild("env-missing", "r2", false);
    EnvironmentStatus retried = awaitStatus("env-missing", s -> "r2".equals(s.getBuildRequestId()));
    assertThat(retried.getBuildStatus()).isEqualTo(BuildStatus.BUILDING);
    assertThat(retried.getBuildError()).isNull();
  }

  @Test
  void jobPastItsDeadlineIsABuildTimeoutAndAnUnknownFailureShowsTheLogsLastLines() {
    create("env-slow", spec -> spec.setBuildRequest(new BuildRequest("r1", false)));
    String slowJob =
        awaitStatus("env-slow", s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();
    finishJob(slowJob, false, "DeadlineExceeded", "still downloading\n");
    assertThat(
            awaitStatus("env-slow", s -> s.getBuildStatus() == BuildStatus.FAILED).getBuildError())
        .isEqualTo("Build timeout");

    create("env-odd", spec -> spec.setBuildRequest(new BuildRequest("r1", false)));
    String oddJob =
        awaitStatus("env-odd", s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();
    finishJob(oddJob, false, null, "step one\nstep two\nerror: disk full\n");
    assertThat(
            awaitStatus("env-odd", s -> s.getBuildStatus() == BuildStatus.FAILED).getBuildError())
        .isEqualTo("step one\nstep two\nerror: disk full");
  }

  @Test
  void underOnChangeAnEnvironmentIsBuiltWhenItAppearsAndAgainWhenItsSpecChanges() {
    create("env-gitops", spec -> spec.setBuildPolicy(BuildPolicy.ON_CHANGE));

    EnvironmentStatus first =
        awaitStatus("env-gitops", s -> s.getBuildStatus() == BuildStatus.BUILDING);
    assertThat(first.getBuildJob()).isEqualTo("env-gitops-build-" + first.getBuildHash() + "-g1");
    assertThat(first.getBuildRequestId()).isNull();
    assertThat(first.getConditions())
        .extracting(c -> c.getType() + "=" + c.getStatus() + "/" + c.getObservedGeneration())
        .containsExactly("Ready=Unknown/1", "Reconciling=True/1");
    finishJob(first.getBuildJob(), true, null, "built\n");
    EnvironmentStatus ready =
        awaitStatus("env-gitops", s -> s.getBuildStatus() == BuildStatus.READY);
    assertThat(Conditions.find(ready.getConditions(), "Ready").orElseThrow().getStatus())
        .isEqualTo("True");
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.reasons(client, NS, "env-gitops"))
                .containsExactly("BuildStarted", "BuildSucceeded"));

    // A reconcile of the same spec builds nothing more.
    client
        .resources(Environment.class)
        .inNamespace(NS)
        .withName("env-gitops")
        .edit(environment -> {
          environment.getMetadata().setLabels(Map.of("touched", "yes"));
          return environment;
        });
    reconciles.awaitSettled(STATUS_WRITERS);
    assertThat(buildJobsOf("env-gitops")).hasSize(1);

    patchSpec("env-gitops", Map.of("runtimes", Map.of("python", "3.12")));
    EnvironmentStatus second =
        awaitStatus(
            "env-gitops",
            s ->
                s.getBuildStatus() == BuildStatus.BUILDING
                    && !s.getBuildHash().equals(first.getBuildHash()));
    assertThat(second.getBuildJob()).endsWith("-g" + generationOf("env-gitops"));
    assertThat(second.getImageTag()).isEqualTo(ready.getImageTag());
  }

  @Test
  void underOnChangeAFailedBuildIsNotRepeatedUntilTheSpecChanges() {
    create(
        "env-gitfail",
        spec -> {
          spec.setBuildPolicy(BuildPolicy.ON_CHANGE);
          spec.setDockerfileExtensions("FROBNICATE now\n");
        });
    EnvironmentStatus failed =
        awaitStatus("env-gitfail", s -> s.getBuildStatus() == BuildStatus.FAILED);
    assertThat(failed.getBuildError()).isEqualTo("Dockerfile syntax error");
    reconciles.awaitSettled(STATUS_WRITERS);
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.reasons(client, NS, "env-gitfail"))
                .containsExactly("BuildFailed"));

    patchSpec("env-gitfail", Map.of("dockerfileExtensions", "RUN echo fixed\n"));
    EnvironmentStatus building =
        awaitStatus("env-gitfail", s -> s.getBuildStatus() == BuildStatus.BUILDING);
    finishJob(building.getBuildJob(), false, "BackoffLimitExceeded", "boom\n");
    awaitStatus("env-gitfail", s -> s.getBuildStatus() == BuildStatus.FAILED);
    reconciles.awaitSettled(STATUS_WRITERS);
    assertThat(buildJobsOf("env-gitfail")).hasSize(1);
  }

  private static long generationOf(String name) {
    return client
        .resources(Environment.class)
        .inNamespace(NS)
        .withName(name)
        .get()
        .getMetadata()
        .getGeneration();
  }

  @Test
  void invalidExtensionsFailFastWithoutAJob() {
    create(
        "env-syntax",
        spec -> {
          spec.setDockerfileExtensions("RUN echo ok\nFROBNICATE now\n");
          spec.setBuildRequest(new BuildRequest("r1", false));
        });

    EnvironmentStatus failed =
        awaitStatus("env-syntax", s -> s.getBuildStatus() == BuildStatus.FAILED);

    assertThat(failed.getBuildError()).isEqualTo("Dockerfile syntax error");
    assertThat(buildJobsOf("env-syntax")).isEmpty();
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(RecordedEvents.reasons(client, NS, "env-syntax"))
                .containsExactly("BuildFailed"));
  }

  @Test
  void anImageOutsideTheAllowListIsRefusedWithoutAJob() {
    create(
        "env-foreign",
        spec -> {
          spec.setBaseImage("ghcr.io/someone/base:1");
          spec.setBuildRequest(new BuildRequest("r1", false));
        });
    create(
        "env-copied",
        spec -> {
          spec.setDockerfileExtensions("COPY --from=quay.io/tools/kit:2 /bin/kit /usr/bin/kit\n");
          spec.setBuildRequest(new BuildRequest("r1", false));
        });

    assertThat(
            awaitStatus("env-foreign", s -> s.getBuildStatus() == BuildStatus.FAILED)
                .getBuildError())
        .isEqualTo(
            "Base image not allowed: ghcr.io/someone/base:1 is not in the build allow-list"
                + " (docker.io/library/*)");
    assertThat(
            awaitStatus("env-copied", s -> s.getBuildStatus() == BuildStatus.FAILED)
                .getBuildError())
        .startsWith("Base image not allowed: quay.io/tools/kit:2");
    assertThat(buildJobsOf("env-foreign")).isEmpty();
    assertThat(buildJobsOf("env-copied")).isEmpty();
  }

  @Test
  void aSecondOperatorOnTheSameStoreAdoptsTheJobInsteadOfStartingAnother() {
    try (ThreadlineOperator second = ThreadlineOperator.start(client, SETTINGS)) {
      create("env-twice", spec -> spec.setBuildRequest(new BuildRequest("r1", false)));
      String jobName =
          awaitStatus("env-twice", s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();
      finishJob(jobName, true, null, "done\n");
      awaitStatus("env-twice", s -> s.getBuildStatus() == BuildStatus.READY);
    }
    assertThat(buildJobsOf("env-twice")).hasSize(1);
  }

  @Test
  void testBuildRunsWithoutCacheOrPushAndReportsInItsOwnStatus() {
    create("env-trial", spec -> spec.setTestBuildRequest(new TestBuildRequest("t1")));

    EnvironmentStatus started =
        awaitStatus(
            "env-trial",
            s -> s.getTestBuild() != null && s.getTestBuild().getPhase() == BuildStatus.BUILDING);
    String jobName = started.getTestBuild().getJob();
    assertThat(jobName).startsWith("env-trial-test-");
    Job job = client.batch().v1().jobs().inNamespace(NS).withName(jobName).get();
    assertThat(job.getSpec().getTemplate().getSpec().getInitContainers()).isEmpty();
    Container kaniko = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(kaniko.getArgs())
        .containsExactly(
            "--dockerfile=/workspace/Dockerfile",
            "--context=dir:///workspace",
            "--no-push",
            "--cache=false");
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
        .extracting(Volume::getName)
        .containsExactly("build-context");

    finishJob(jobName, true, null, "built, not pushed\n");

    EnvironmentStatus done =
        awaitStatus(
            "env-trial",
            s -> s.getTestBuild() != null && s.getTestBuild().getPhase() == BuildStatus.READY);
    assertThat(done.getTestBuild().getImageTag()).isEqualTo("env-trial:" + done.getBuildHash());
    assertThat(done.getBuildStatus()).isEqualTo(BuildStatus.PENDING);
  }

  @Test
  void eachBuildHasItsOwnContextPolicyAndJobAndANewConfigurationReplacesThem() {
    create("env-deps", spec -> spec.setBuildRequest(new BuildRequest("b1", false)));
    String first =
        awaitStatus("env-deps", s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();
    String uid =
        client
            .resources(Environment.class)
            .inNamespace(NS)
            .withName("env-deps")
            .get()
            .getMetadata()
            .getUid();
    // Kubernetes' garbage collector deletes them with the Environment (the mock has none): each is
    // controlled by it.
    assertThat(buildObjects("env-deps"))
        .containsExactlyInAnyOrder("ConfigMap/" + first, "NetworkPolicy/" + first, "Job/" + first)
        .allSatisfy(object ->
            assertThat(ownerOf(object))
                .satisfies(owner -> {
                  assertThat(owner.getUid()).isEqualTo(uid);
                  assertThat(owner.getController()).isTrue();
                }));

    // A test build runs beside the image build, with objects of its own.
    patchSpec("env-deps", Map.of("testBuildRequest", new TestBuildRequest("t1")));
    String test =
        awaitStatus(
                "env-deps",
                s ->
                    s.getTestBuild() != null && s.getTestBuild().getPhase() == BuildStatus.BUILDING)
            .getTestBuild()
            .getJob();
    assertThat(buildObjects("env-deps"))
        .containsExactlyInAnyOrder(
            "ConfigMap/" + first,
            "NetworkPolicy/" + first,
            "Job/" + first,
            "ConfigMap/" + test,
            "NetworkPolicy/" + test,
            "Job/" + test);
    finishJob(first, true, null, "built\n");
    // One at a time: two Jobs ending at once make two status patches computed from one cached
    // object, and the second's JSON patch may name a condition index the first removed; the
    // framework then retries with back-off, past this test's wait (noted on issue 32: status
    // writes should go through one writer with optimistic updates).
    awaitStatus("env-deps", s -> s.getBuildStatus() == BuildStatus.READY);
    finishJob(test, true, null, "tested\n");
    awaitStatus(
        "env-deps",
        s ->
            s.getBuildStatus() == BuildStatus.READY
                && s.getTestBuild().getPhase() == BuildStatus.READY);

    // A new configuration is a new hash, so new objects; the old build's go, the test build's stay
    // while the status names it.
    patchSpec(
        "env-deps",
        Map.of("runtimes", Map.of("nodejs", "22"), "buildRequest", new BuildRequest("b2", false)));
    EnvironmentStatus second =
        awaitStatus(
            "env-deps",
            s -> "b2".equals(s.getBuildRequestId()) && s.getBuildStatus() == BuildStatus.BUILDING);
    assertThat(second.getBuildJob()).doesNotContain(first.split("-")[3]).endsWith("-b2");
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(buildObjects("env-deps"))
                .containsExactlyInAnyOrder(
                    "ConfigMap/" + second.getBuildJob(),
                    "NetworkPolicy/" + second.getBuildJob(),
                    "Job/" + second.getBuildJob(),
                    "ConfigMap/" + test,
                    "NetworkPolicy/" + test,
                    "Job/" + test));
    assertThat(client.configMaps().inNamespace(NS).withName(second.getBuildJob()).get().getData())
        .hasEntrySatisfying(
            "Dockerfile",
            dockerfile -> assertThat(dockerfile).contains("build hash " + second.getBuildHash()));
  }

  @Test
  void aFinishedBuildsJobDeletedByHandIsNotStartedAgain() {
    String jobName = builtSuccessfully("env-gone", "g1");
    long settled = reconciles.awaitSettled(STATUS_WRITERS);

    client.batch().v1().jobs().inNamespace(NS).withName(jobName).delete();
    await().atMost(WAIT).until(() -> reconciles.of(STATUS_WRITERS) > settled);
    reconciles.awaitSettled(STATUS_WRITERS);

    assertThat(buildObjects("env-gone"))
        .containsExactlyInAnyOrder("ConfigMap/" + jobName, "NetworkPolicy/" + jobName);
    assertThat(
            client
                .resources(Environment.class)
                .inNamespace(NS)
                .withName("env-gone")
                .get()
                .getStatus()
                .getBuildStatus())
        .isEqualTo(BuildStatus.READY);
  }

  /** Creates an Environment built only on request (Manual), as the REST API's are. */
  private static void create(String name, Consumer<EnvironmentSpec> customize) {
    Environment environment = new Environment();
    environment.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(name.substring("env-".length()));
    spec.setBuildPolicy(BuildPolicy.MANUAL);
    customize.accept(spec);
    environment.setSpec(spec);
    client.resource(environment).create();
  }

  /** Creates an Environment with a build request and plays its build to success; its Job's name. */
  private static String builtSuccessfully(String name, String requestId) {
    create(name, spec -> spec.setBuildRequest(new BuildRequest(requestId, false)));
    String jobName =
        awaitStatus(name, s -> s.getBuildStatus() == BuildStatus.BUILDING).getBuildJob();
    finishJob(jobName, true, null, "built\n");
    awaitStatus(name, s -> s.getBuildStatus() == BuildStatus.READY);
    return jobName;
  }

  private static void requestBuild(String name, String id, boolean force) {
    patchSpec(name, Map.of("buildRequest", new BuildRequest(id, force)));
  }

  private static void patchSpec(String name, Map<String, Object> spec) {
    client
        .resources(Environment.class)
        .inNamespace(NS)
        .withName(name)
        .patch(
            PatchContext.of(
                PatchType.JSON_MERGE), // no resourceVersion: the operator writes status meanwhile
            Serialization.asJson(Map.of("spec", spec)));
  }

  private static EnvironmentStatus awaitStatus(
      String name, java.util.function.Predicate<EnvironmentStatus> condition) {
    return await()
        .atMost(WAIT)
        .until(
            () -> {
              Environment seen =
                  client.resources(Environment.class).inNamespace(NS).withName(name).get();
              return seen == null ? null : seen.getStatus();
            },
            status -> status != null && condition.test(status));
  }

  private static final List<Class<? extends HasMetadata>> BUILD_OBJECT_TYPES =
      List.of(ConfigMap.class, NetworkPolicy.class, Job.class);

  /** The build objects of an Environment, as {@code Kind/name}. */
  private static List<String> buildObjects(String environment) {
    return BUILD_OBJECT_TYPES.stream()
        .flatMap(type ->
            client
                .resources(type)
                .inNamespace(NS)
                .withLabel(EnvironmentValues.BUILD_KIND_LABEL)
                .list()
                .getItems()
                .stream())
        .filter(o ->
            environment.equals(
                o.getMetadata().getLabels().get(EnvironmentValues.ENVIRONMENT_LABEL)))
        .map(o -> o.getKind() + "/" + o.getMetadata().getName())
        .toList();
  }

  private static OwnerReference ownerOf(String kindAndName) {
    String[] parts = kindAndName.split("/");
    Class<? extends HasMetadata> type =
        BUILD_OBJECT_TYPES.stream()
            .filter(t -> t.getSimpleName().equals(parts[0]))
            .findFirst()
            .orElseThrow();
    HasMetadata object = client.resources(type).inNamespace(NS).withName(parts[1]).get();
    assertThat(object.getMetadata().getOwnerReferences()).hasSize(1);
    return object.getMetadata().getOwnerReferences().get(0);
  }

  private static List<Job> buildJobsOf(String environment) {
    return client
        .batch()
        .v1()
        .jobs()
        .inNamespace(NS)
        .withLabel(EnvironmentValues.ENVIRONMENT_LABEL, environment)
        .list()
        .getItems();
  }

  /**
   * Plays the Job controller and the kubelet: a Pod that printed {@code log}, then the Job's end.
   */
  private static void finishJob(
      String jobName, boolean succeeded, String failureReason, String log) {
    finishJob(jobName, succeeded, failureReason, log, null, null);
  }

  /**
   * The same, with the push step's log and the references it reported as its termination message.
   */
  private static void finishJob(
      String jobName,
      boolean succeeded,
      String failureReason,
      String log,
      String pushLog,
      String pushed) {
    String podName = jobName + "-x1y2z";
    client
        .pods()
        .inNamespace(NS)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(podName)
                .withNamespace(NS)
                .addToLabels("job-name", jobName)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("kaniko")
                .withImage("kaniko")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .addNewContainerStatus()
                .withName(KanikoBuildJob.PUSH_CONTAINER)
                .withNewState()
                .withNewTerminated()
                .withExitCode(0)
                .withMessage(pushed)
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build())
        .create();
    dispatcher.setLog(NS, podName, log);
    if (pushLog != null) {
      dispatcher.setLog(NS, podName, KanikoBuildJob.PUSH_CONTAINER, pushLog);
    }
    var status = new JobStatusBuilder();
    if (succeeded) {
      status
          .withSucceeded(1)
          .withConditions(
              new JobConditionBuilder().withType("Complete").withStatus("True").build());
    } else {
      status
          .withFailed(1)
          .withConditions(
              new JobConditionBuilder()
                  .withType("Failed")
                  .withStatus("True")
                  .withReason(failureReason == null ? "BackoffLimitExceeded" : failureReason)
                  .build());
    }
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(NS)
        .withName(jobName)
        .editStatus(job -> {
          job.setStatus(status.build());
          return job;
        });
  }
}
