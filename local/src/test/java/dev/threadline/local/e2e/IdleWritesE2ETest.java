package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.schedule.FiringNames;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An idle local mode writes nothing: with one recurring schedule (due at 03:00, not during the
 * test) its CronJob is reconciled once and then left alone, and over a whole minute the store's
 * revision, which every write of any object advances, does not move.
 */
class IdleWritesE2ETest {
  private static final Duration OBSERVED = Duration.ofSeconds(60);

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void anIdleServiceWithARecurringScheduleWritesNothingForAMinute() throws Exception {
    KubernetesClient client = fixture.local().client();
    HttpResponse<String> created =
        fixture.post(
            ALICE_KEY,
            "/v1/schedules",
            """
            {"name": "Nightly", "task": "Hello!", "scheduleType": "recurring", "cronExpression": "0 3 * * *"}\
            """);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = new ObjectMapper().readTree(created.body()).at("/schedule/id").asText();
    String cronJobName = FiringNames.cronJobName(id.replace('_', '-'));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.batch().v1().cronjobs().inNamespace("alice").withName(cronJobName).get(),
            IdleWritesE2ETest::reconciledByItsController);
    long before = settledRevision(client);

    Thread.sleep(OBSERVED);

    long after = revision(client);
    assertThat(after - before)
        .as(
            "writes in %s of idle life (CronJob resourceVersion now %s)",
            OBSERVED,
            client
                .batch()
                .v1()
                .cronjobs()
                .inNamespace("alice")
                .withName(cronJobName)
                .get()
                .getMetadata()
                .getResourceVersion())
        .isZero();
  }

  /** The local CronJob controller has looked at it: it knows when the schedule is next due. */
  private static boolean reconciledByItsController(CronJob cronJob) {
    return cronJob != null
        && Instant.parse(cronJob.getMetadata().getCreationTimestamp())
            .isBefore(Instant.now().minusSeconds(2));
  }

  /**
   * The revision once the start-up's writes are over: the same over three seconds. A service that
   * never settles is measured all the same, so that the count of its writes is what fails.
   */
  private static long settledRevision(KubernetesClient client) throws InterruptedException {
    long last = revision(client);
    for (int look = 0; look < 15; look++) {
      Thread.sleep(3000);
      long now = revision(client);
      if (now == last) {
        break;
      }
      last = now;
    }
    return last;
  }

  /** The store's revision: a list answers with it, and every write of any object advances it. */
  private static long revision(KubernetesClient client) {
    return Long.parseLong(
        client
            .namespaces()
            .list(new ListOptionsBuilder().withLimit(1L).build())
            .getMetadata()
            .getResourceVersion());
  }
}
