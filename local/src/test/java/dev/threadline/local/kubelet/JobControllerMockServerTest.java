package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.local.kubelet.controllers.JobController;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@EnableKubernetesMockClient(crud = true)
class JobControllerMockServerTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;
  @TempDir Path dataDir;
  private ProcessKubelet kubelet;
  private JobController jobs;

  @BeforeEach
  void start() {
    kubelet =
        new ProcessKubelet(
            client,
            KubeletSettings.of(dataDir).withTerminationGrace(Duration.ofSeconds(1)),
            TestPods.busybox());
    kubelet.start();
    jobs = new JobController(client);
  }

  @AfterEach
  void stop() {
    jobs.close();
    kubelet.close();
  }

  @Test
  void jobRunsOnePodToCompletion() {
    jobs.start();
    client.resource(job("hello", "echo done").build()).create();

    Job job = awaitCondition("hello", "Complete");

    assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
    assertThat(job.getStatus().getActive()).isZero();
    assertThat(job.getStatus().getStartTime()).isNotNull();
    assertThat(job.getStatus().getCompletionTime()).isNotNull();
    List<Pod> pods = client.pods().inNamespace(NS).list().getItems();
    assertThat(pods)
        .singleElement()
        .satisfies(pod -> {
          assertThat(pod.getMetadata().getName()).matches("hello-[a-z0-9]{5}");
          assertThat(pod.getMetadata().getLabels())
              .containsEntry("job-name", "hello")
              .containsEntry("batch.kubernetes.io/job-name", "hello")
              .containsEntry("controller-uid", job.getMetadata().getUid())
              .containsEntry("batch.kubernetes.io/controller-uid", job.getMetadata().getUid())
              .containsEntry("app", "test");
          assertThat(pod.getMetadata().getOwnerReferences())
              .singleElement()
              .satisfies(owner -> {
                assertThat(owner.getKind()).isEqualTo("Job");
                assertThat(owner.getUid()).isEqualTo(job.getMetadata().getUid());
                assertThat(owner.getController()).isTrue();
                assertThat(owner.getBlockOwnerDeletion()).isTrue();
              });
        });
  }

  @Test
  void failingJobIsRetriedUntilTheBackoffLimitIsExceeded() {
    jobs.start();
    client
        .resource(job("flaky", "exit 1").editSpec().withBackoffLimit(1).endSpec().build())
        .create();

    Job job = awaitCondition("flaky", "Failed");

    JobCondition failed = condition(job, "Failed");
    assertThat(failed.getReason()).isEqualTo("BackoffLimitExceeded");
    assertThat(job.getStatus().getFailed()).isEqualTo(2);
    assertThat(client.pods().inNamespace(NS).list().getItems())
        .hasSize(2)
        .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Failed"));
  }

  @Test
  void activeDeadlineFailsTheJobAndRemovesItsPod() {
    jobs.start();
    client
        .resource(
            job("slow", "sleep 30").editSpec().withActiveDeadlineSeconds(1L).endSpec().build())
        .create();

    Job job = awaitCondition("slow", "Failed");

    assertThat(condition(job, "Failed").getReason()).isEqualTo("DeadlineExceeded");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> client.pods().inNamespace(NS).list().getItems().isEmpty());
  }

  @Test
  void suspendedJobCreatesNoPod() {
    jobs.start();
    client
        .resource(job("paused", "echo never").editSpec().withSuspend(true).endSpec().build())
        .create();

    await()
        .atMost(Duration.ofSeconds(3))
        .until(() ->
            condition(
                    client.batch().v1().jobs().inNamespace(NS).withName("paused").get(),
                    "Suspended")
                != null);
    await()
        .during(Duration.ofMillis(700))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.pods().inNamespace(NS).list().getItems().isEmpty());
  }

  @Test
  void finishedJobIsDeletedAfterItsTtl() {
    jobs.start();
    client
        .resource(
            job("shortlived", "true").editSpec().withTtlSecondsAfterFinished(0).endSpec().build())
        .create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.batch().v1().jobs().inNamespace(NS).withName("shortlived").get() == null);
  }

  @Test
  void existingPodOfAJobIsAdoptedAfterARestart() {
    Job job = client.resource(job("adopt", "echo new-pod").build()).create();
    Pod earlier =
        TestPods.shell("adopt-x2b4z", "echo earlier-pod")
            .editMetadata()
            .withLabels(
                Map.of(
                    "batch.kubernetes.io/controller-uid",
                    job.getMetadata().getUid(),
                    "controller-uid",
                    job.getMetadata().getUid(),
                    "job-name",
                    "adopt",
                    "batch.kubernetes.io/job-name",
                    "adopt"))
            .addNewOwnerReference()
            .withApiVersion("batch/v1")
            .withKind("Job")
            .withName("adopt")
            .withUid(job.getMetadata().getUid())
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .build();
    client.resource(earlier).create();

    jobs.start();

    awaitCondition("adopt", "Complete");
    assertThat(client.pods().inNamespace(NS).list().getItems())
        .extracting(pod -> pod.getMetadata().getName())
        .containsExactly("adopt-x2b4z");
  }

  private static JobBuilder job(String name, String script) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", "test")
        .endMetadata()
        .withSpec(TestPods.build("unused", script).getSpec())
        .endTemplate()
        .endSpec();
  }

  private Job awaitCondition(String name, String type) {
    return await()
        .atMost(Duration.ofSeconds(8))
        .until(
            () -> client.batch().v1().jobs().inNamespace(NS).withName(name).get(),
            job ->
                job != null
                    && condition(job, type) != null
                    && "True".equals(condition(job, type).getStatus()));
  }

  private static JobCondition condition(Job job, String type) {
    if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
