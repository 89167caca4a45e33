package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.local.kubelet.controllers.CronJobController;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class CronJobControllerMockServerTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;

  /** Ten minutes ahead of the API server's clock, so runs after the CronJob's creation are due. */
  private final MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));

  private CronJobController controller;

  @AfterEach
  void stop() {
    controller.close();
  }

  @Test
  void dueScheduleCreatesExactlyOneJobWithADeterministicName() {
    startController();
    CronJob cronJob = client.resource(cronJob("tick", "* * * * *").build()).create();

    Instant scheduled = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    String expectedName = "tick-" + scheduled.getEpochSecond() / 60;
    Job job =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> client.batch().v1().jobs().inNamespace(NS).withName(expectedName).get(),
                java.util.Objects::nonNull);
    touch("tick");

    await()
        .during(Duration.ofMillis(700))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().size() == 1);
    assertThat(job.getMetadata().getAnnotations())
        .containsEntry("batch.kubernetes.io/cronjob-scheduled-timestamp", scheduled.toString());
    assertThat(job.getMetadata().getLabels()).containsEntry("app", "tick");
    assertThat(job.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("CronJob");
          assertThat(owner.getUid()).isEqualTo(cronJob.getMetadata().getUid());
          assertThat(owner.getController()).isTrue();
        });
    CronJob updated =
        await()
            .atMost(Duration.ofSeconds(3))
            .until(
                () -> client.batch().v1().cronjobs().inNamespace(NS).withName("tick").get(),
                c -> c.getStatus() != null && c.getStatus().getActive() != null);
    assertThat(updated.getStatus().getLastScheduleTime()).isEqualTo(scheduled.toString());
    assertThat(updated.getStatus().getActive())
        .singleElement()
        .satisfies(ref -> assertThat(ref.getName()).isEqualTo(expectedName));
  }

  @Test
  void suspendedCronJobCreatesNoJob() {
    startController();
    client
        .resource(cronJob("paused", "* * * * *").editSpec().withSuspend(true).endSpec().build())
        .create();

    await()
        .during(Duration.ofMillis(800))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().isEmpty());
  }

  @Test
  void timeZoneDecidesWhenAnHourlyScheduleFires() {
    clock.set(Instant.now().plus(Duration.ofHours(3)));
    startController();
    // Kolkata is UTC+05:30: its full hours are half past in UTC.
    client
        .resource(
            cronJob("kolkata", "0 * * * *")
                .editSpec()
                .withTimeZone("Asia/Kolkata")
                .endSpec()
                .build())
        .create();

    Job job =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> client.batch().v1().jobs().inNamespace(NS).list().getItems(),
                jobs -> !jobs.isEmpty())
            .getFirst();

    long epochMinutes = Long.parseLong(job.getMetadata().getName().substring("kolkata-".length()));
    assertThat(epochMinutes % 60).isEqualTo(30);
    assertThat(
            job.getMetadata()
                .getAnnotations()
                .get("batch.kubernetes.io/cronjob-scheduled-timestamp"))
        .endsWith(":00+05:30");
  }

  @Test
  void runLaterThanTheStartingDeadlineIsSkipped() {
    clock.set(
        Instant.now().plus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MINUTES).plusSeconds(30));
    startController();
    client
        .resource(
            cronJob("late", "* * * * *")
                .editSpec()
                .withStartingDeadlineSeconds(10L)
                .endSpec()
                .build())
        .create();

    await()
        .during(Duration.ofMillis(800))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().isEmpty());
  }

  @Test
  void forbidKeepsTheActiveJobAndStartsNoOther() {
    startController();
    client
        .resource(
            cronJob("single", "* * * * *")
                .editSpec()
                .withConcurrencyPolicy("Forbid")
                .endSpec()
                .build())
        .create();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().size() == 1);

    clock.advance(Duration.ofMinutes(1));
    touch("single");

    await()
        .during(Duration.ofMillis(800))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.batch().v1().jobs().inNamespace(NS).list().getItems().size() == 1);
  }

  @Test
  void replaceDeletesTheActiveJobAndStartsTheNewRun() {
    startController();
    client
        .resource(
            cronJob("fresh", "* * * * *")
                .editSpec()
                .withConcurrencyPolicy("Replace")
                .endSpec()
                .build())
        .create();
    String first =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> client.batch().v1().jobs().inNamespace(NS).list().getItems(),
                jobs -> jobs.size() == 1)
            .getFirst()
            .getMetadata()
            .getName();

    clock.advance(Duration.ofMinutes(1));
    touch("fresh");

    List<Job> jobs =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> client.batch().v1().jobs().inNamespace(NS).list().getItems(),
                list -> list.size() == 1 && !list.getFirst().getMetadata().getName().equals(first));
    assertThat(jobs.getFirst().getMetadata().getName())
        .isEqualTo(
            "fresh-" + clock.instant().truncatedTo(ChronoUnit.MINUTES).getEpochSecond() / 60);
  }

  @Test
  void finishedJobsBeyondTheHistoryLimitsAreDeleted() {
    CronJob cronJob =
        client
            .resource(
                cronJob("history", "0 0 1 1 *")
                    .editSpec()
                    .withSuccessfulJobsHistoryLimit(1)
                    .withFailedJobsHistoryLimit(1)
                    .endSpec()
                    .build())
            .create();
    for (int i = 1; i <= 3; i++) {
      client
          .resource(
              finishedJob(cronJob, "history-" + i, "Complete", "2026-01-0" + i + "T00:00:00Z"))
          .create();
    }
    for (int i = 4; i <= 5; i++) {
      client
          .resource(finishedJob(cronJob, "history-" + i, "Failed", "2026-01-0" + i + "T00:00:00Z"))
          .create();
    }

    startController();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                client.batch().v1().jobs().inNamespace(NS).list().getItems().stream()
                    .map(job -> job.getMetadata().getName())
                    .sorted()
                    .toList(),
            names -> names.equals(List.of("history-3", "history-5")));
    CronJob updated =
        await()
            .atMost(Duration.ofSeconds(3))
            .until(
                () -> client.batch().v1().cronjobs().inNamespace(NS).withName("history").get(),
                c -> c.getStatus() != null && c.getStatus().getLastSuccessfulTime() != null);
    assertThat(updated.getStatus().getLastSuccessfulTime()).isEqualTo("2026-01-03T00:10:00Z");
  }

  private void startController() {
    controller = new CronJobController(client, clock);
    controller.start();
  }

  private void touch(String name) {
    // A merge patch without resourceVersion: the controller's own status writes cannot make it
    // conflict.
    client
        .batch()
        .v1()
        .cronjobs()
        .inNamespace(NS)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"touched\":\"" + System.nanoTime() + "\"}}}");
  }

  private static CronJobBuilder cronJob(String name, String schedule) {
    return new CronJobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .endMetadata()
        .withNewSpec()
        .withSchedule(schedule)
        .withNewJobTemplate()
        .withNewMetadata()
        .addToLabels("app", name)
        .endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withSpec(TestPods.build("unused", "echo scheduled").getSpec())
        .endTemplate()
        .endSpec()
        .endJobTemplate()
        .endSpec();
  }

  private static Job finishedJob(CronJob owner, String name, String condition, String startTime) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .addNewOwnerReference()
        .withApiVersion("batch/v1")
        .withKind("CronJob")
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withSpec(TestPods.build("unused", "true").getSpec())
        .endTemplate()
        .endSpec()
        .withNewStatus()
        .withStartTime(startTime)
        .withCompletionTime(
            condition.equals("Complete") ? startTime.replace("00:00:00Z", "00:10:00Z") : null)
        .addNewCondition()
        .withType(condition)
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }
}
