package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.schedule.FiringNames;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Schedules through the local mode: the operator fires a one-time schedule at its time, and a
 * recurring schedule's CronJob Pod — the runner's {@code trigger} in its own JVM, reaching the
 * embedded API the way the process kubelet offers Pods that ask for a service-account token —
 * creates a thread whose run completes and is counted.
 */
class SchedulesE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static LocalModeFixture fixture;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
    client = fixture.local().client();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void aOneTimeScheduleFiresAtItsTimeAndItsThreadCompletes() {
    // Far enough ahead that a loaded machine still posts it before its time (3 s was not).
    Instant at = Instant.now().plusSeconds(8);
    JsonNode created =
        json(
            fixture.post(
                ALICE_KEY,
                "/v1/schedules",
                """
                {"name": "Greeting", "task": "Hello!", "scheduleType": "one-time", "scheduledTime": "%s"}\
                """
                    .formatted(at)));
    String id = created.get("schedule").get("id").asText();
    assertThat(created.get("schedule").get("nextRunAt").asText())
        .isEqualTo(at.truncatedTo(ChronoUnit.MILLIS).toString());

    JsonNode done =
        await()
            .atMost(WAIT)
            .until(
                () -> schedule(id),
                s -> s.get("runCount").asLong() == 1 && s.get("successCount").asLong() == 1);
    assertThat(done.get("enabled").asBoolean()).isFalse();
    assertThat(done.get("nextRunAt").isNull()).isTrue();
    assertThat(Instant.parse(done.get("lastRunAt").asText()))
        .isAfterOrEqualTo(at.truncatedTo(ChronoUnit.SECONDS));
    String threadName = FiringNames.threadName(id.replace('_', '-'), at);
    ConversationThread thread =
        client.resources(ConversationThread.class).inNamespace("alice").withName(threadName).get();
    assertThat(thread.getStatus().getStatus()).isEqualTo("completed");
    assertThat(thread.getMetadata().getLabels())
        .containsEntry(Labels.SCHEDULE, id.replace('_', '-'));
  }

  @Test
  void aRecurringSchedulesTriggerPodCreatesAThreadThatIsCounted() {
    JsonNode created =
        json(
            fixture.post(
                ALICE_KEY,
                "/v1/schedules",
                """
                {"name": "Yearly", "task": "Hello there!", "scheduleType": "recurring", "cronExpression": "0 0 1 1 *"}\
                """));
    String id = created.get("schedule").get("id").asText();
    String name = id.replace('_', '-');
    CronJob cronJob =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    client
                        .batch()
                        .v1()
                        .cronjobs()
                        .inNamespace("alice")
                        .withName(FiringNames.cronJobName(name))
                        .get(),
                c -> c != null);

    // Start a firing now, as the CronJob controller would at its time (and as
    // `kubectl create job --from=cronjob/...` does): a Job from its template, named for the minute.
    Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    String jobName = cronJob.getMetadata().getName() + "-" + FiringNames.epochMinutes(minute);
    client
        .resource(
            new JobBuilder()
                .withNewMetadata()
                .withName(jobName)
                .withNamespace("alice")
                .withLabels(cronJob.getSpec().getJobTemplate().getMetadata().getLabels())
                .endMetadata()
                .withSpec(cronJob.getSpec().getJobTemplate().getSpec())
                .build())
        .create();

    Job job =
        await()
            .atMost(WAIT)
            .until(
                () -> client.batch().v1().jobs().inNamespace("alice").withName(jobName).get(),
                j ->
                    j.getStatus() != null
                        && (isSet(j.getStatus().getSucceeded())
                            || isSet(j.getStatus().getFailed())));
    assertThat(job.getStatus().getSucceeded()).as("the trigger Job succeeded").isEqualTo(1);
    String threadName = FiringNames.threadName(name, minute);
    assertThat(
            client
                .resources(ConversationThread.class)
                .inNamespace("alice")
                .withName(threadName)
                .get())
        .isNotNull();

    JsonNode counted =
        await()
            .atMost(WAIT)
            .until(
                () -> schedule(id),
                s -> s.get("runCount").asLong() == 1 && s.get("successCount").asLong() == 1);
    assertThat(counted.get("failureCount").asLong()).isZero();
    assertThat(counted.get("enabled").asBoolean()).isTrue();
  }

  @Test
  void triggerRunsARecurringScheduleNowAndItsCountsRise() {
    JsonNode created =
        json(
            fixture.post(
                ALICE_KEY,
                "/v1/schedules",
                """
                {"name": "On demand", "task": "Hello again!", "scheduleType": "recurring", "cronExpression": "0 0 1 1 *"}\
                """));
    String id = created.get("schedule").get("id").asText();

    JsonNode triggered = json(fixture.post(ALICE_KEY, "/v1/schedules/" + id + "/trigger", "{}"));
    assertThat(triggered.get("thread").get("status").asText()).isEqualTo("running");
    assertThat(triggered.get("message").asText()).isNotBlank();
    String threadId = triggered.get("thread").get("id").asText();

    JsonNode counted =
        await()
            .atMost(WAIT)
            .until(
                () -> schedule(id),
                s -> s.get("runCount").asLong() == 1 && s.get("successCount").asLong() == 1);
    assertThat(counted.get("failureCount").asLong()).isZero();
    JsonNode thread = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId)).get("thread");
    assertThat(thread.get("status").asText()).isEqualTo("completed");
  }

  private static boolean isSet(Integer count) {
    return count != null && count > 0;
  }

  private static JsonNode schedule(String id) {
    return json(fixture.get(ALICE_KEY, "/v1/schedules/" + id)).get("schedule");
  }

  private static JsonNode json(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
