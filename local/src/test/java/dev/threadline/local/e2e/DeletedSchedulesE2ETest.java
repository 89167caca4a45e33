package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.schedule.FiringNames;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.trigger.TriggerPod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A deleted schedule never fires again: after 50 cycles of creating an every-minute schedule,
 * waiting for its CronJob and deleting it, no CronJob, Job, trigger Pod or trigger process is left
 * once a minute boundary (when any survivor would fire) has passed, and no thread was made by one.
 */
class DeletedSchedulesE2ETest {
  private static final int CYCLES = 50;
  private static final String NAMESPACE = "alice";
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void fiftyCreateDeleteCyclesLeaveNothingThatFires() throws Exception {
    KubernetesClient client = fixture.local().client();
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      HttpResponse<String> created =
          fixture.post(
              ALICE_KEY,
              "/v1/schedules",
              """
              {"name": "Cycle %d", "task": "Hello!", "scheduleType": "recurring", "cronExpression": "* * * * *"}\
              """
                  .formatted(cycle));
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = JSON.readTree(created.body()).at("/schedule/id").asText();
      String cronJob = FiringNames.cronJobName(id.replace('_', '-'));
      // Deleted once its CronJob is there: its deletion's events then reach the operator.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() ->
              client.batch().v1().cronjobs().inNamespace(NAMESPACE).withName(cronJob).get()
                  != null);
      HttpResponse<String> deleted = fixture.delete(ALICE_KEY, "/v1/schedules/" + id);
      assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
    }
    Instant lastDeleted = Instant.now();

    // Past the next minute boundary, when a CronJob left behind would start a trigger Job.
    Instant afterFiring = lastDeleted.truncatedTo(ChronoUnit.MINUTES).plusSeconds(75);
    Thread.sleep(Duration.between(Instant.now(), afterFiring));

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertNothingLeft(client));
    await()
        .during(Duration.ofSeconds(5))
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertNothingLeft(client));
    List<String> firedAfterDeletion =
        client
            .resources(ConversationThread.class)
            .inNamespace(NAMESPACE)
            .withLabel(Labels.SCHEDULE)
            .list()
            .getItems()
            .stream()
            .filter(thread ->
                Instant.parse(thread.getMetadata().getCreationTimestamp())
                    .isAfter(lastDeleted.plusSeconds(2)))
            .map(thread -> thread.getMetadata().getName())
            .toList();
    assertThat(firedAfterDeletion).as("threads made by deleted schedules").isEmpty();
  }

  private static void assertNothingLeft(KubernetesClient client) {
    assertThat(client.batch().v1().cronjobs().inNamespace(NAMESPACE).list().getItems())
        .as("CronJobs")
        .isEmpty();
    assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems())
        .as("Jobs")
        .isEmpty();
    assertThat(client.pods().inNamespace(NAMESPACE).withLabel(Labels.SCHEDULE).list().getItems())
        .as("trigger Pods")
        .isEmpty();
    assertThat(
            ProcessHandle.current()
                .descendants()
                .filter(process ->
                    process
                        .info()
                        .commandLine()
                        .map(line -> line.contains(TriggerPod.SCHEDULE_OPTION))
                        .orElse(false))
                .toList())
        .as("trigger processes")
        .isEmpty();
  }
}
