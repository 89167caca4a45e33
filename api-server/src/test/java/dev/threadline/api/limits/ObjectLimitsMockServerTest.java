package dev.threadline.api.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-user object limits and the shortest schedule interval, on a second API server (over the
 * shared mock cluster) started with small limits.
 */
class ObjectLimitsMockServerTest {
  private static final Map<String, String> LIMITS =
      Map.of(
          "threadline.limits.containers", "2",
          "threadline.limits.schedules", "1",
          "threadline.limits.threads", "1",
          "threadline.limits.runs", "1",
          "threadline.limits.min-schedule-interval", "15m");

  private static SharedApiServer shared;
  private static RunningApiServer server;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    shared = SharedApiServer.get();
    LIMITS.forEach(System::setProperty);
    try {
      server =
          ThreadlineApiServer.start(
              shared.client(), ApiServerSettings.loopback(SharedApiServer.SYSTEM_NAMESPACE));
    } finally {
      LIMITS.keySet().forEach(System::clearProperty);
    }
    api = new ApiClient(server.baseUrl());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aUserBeyondALimitGets403NamingIt() {
    TestUser user = shared.newUser("limited");
    api.awaitAccepted(user.key());
    TestUser other = shared.newUser("unlimited");
    api.awaitAccepted(other.key());

    assertThat(api.post("/api/v1/containers", user.key(), "{}").status()).isEqualTo(201);
    assertThat(api.post("/api/v1/containers", user.key(), "{}").status()).isEqualTo(201);
    ApiClient.Response refused = api.post("/api/v1/containers", user.key(), "{}");

    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.text("error")).isEqualTo("Forbidden");
    assertThat(refused.text("code")).isEqualTo("limit_exceeded");
    assertThat(refused.text("message"))
        .isEqualTo(
            "Limit exceeded: a user may hold at most 2 containers; delete some before creating"
                + " more");
    assertThat(api.post("/api/v1/containers", other.key(), "{}").status())
        .as("the limit is per user")
        .isEqualTo(201);

    String schedule =
        "{\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"recurring\", \"cronExpression\":"
            + " \"0 9 * * *\"}";
    assertThat(api.post("/v1/schedules", user.key(), schedule).status()).isEqualTo(201);
    assertThat(api.post("/v1/schedules", user.key(), schedule).text("message"))
        .contains("at most 1 schedules");
  }

  @Test
  void triggeringAScheduleCountsAgainstTheThreadLimit() {
    TestUser user = shared.newUser("triggers");
    api.awaitAccepted(user.key());
    String id =
        api.post(
                "/v1/schedules",
                user.key(),
                "{\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"recurring\","
                    + " \"cronExpression\": \"0 9 * * *\"}")
            .json()
            .get("schedule")
            .get("id")
            .asString();
    assertThat(api.post("/v1/threads", user.key(), "{\"title\":\"t\"}").status()).isEqualTo(201);

    ApiClient.Response refused = api.post("/v1/schedules/" + id + "/trigger", user.key(), null);

    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    assertThat(refused.text("code")).isEqualTo("limit_exceeded");
    assertThat(refused.text("message")).contains("at most 1 threads");
  }

  @Test
  void aLongMessageWhoseRunIsRefusedLeavesNoBodyInTheHistoryStore() {
    TestUser user = shared.newUser("bodies");
    api.awaitAccepted(user.key());
    String id = api.post("/v1/threads", user.key(), "{}").json().get("thread").get("id").asString();
    // Its first run, ended (no operator here): the thread takes a message; the user holds 1 run.
    ConversationThread thread =
        shared
            .client()
            .resources(ConversationThread.class)
            .inNamespace(user.namespace())
            .withName(id.replaceFirst("_", "-"))
            .get();
    Run first =
        shared
            .client()
            .resource(ThreadRuns.newRun(thread, 1, "hello", List.of(), ThreadRuns.SOURCE_API))
            .create();
    RunStatus ended = new RunStatus();
    ended.setPhase(RunPhase.COMPLETED.value());
    first.setStatus(ended);
    shared.client().resource(first).updateStatus();
    long kept = shared.history().usage().bytes(user.namespace());

    String longMessage = "y".repeat(RunSpec.INLINE_MESSAGE + 100);
    ApiClient.Response refused =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () ->
                    api.post(
                        "/v1/threads/" + id + "/messages",
                        user.key(),
                        "{\"content\": \"" + longMessage + "\", \"stream\": false}"),
                response -> response.status() != 409);

    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    assertThat(refused.text("message")).contains("at most 1 runs");
    // The body stored for the refused Run went with the refusal: the user's bytes are as before.
    assertThat(shared.history().usage().bytes(user.namespace())).isEqualTo(kept);
  }

  @Test
  void aScheduleMayNotFireMoreOftenThanTheMinimumInterval() {
    TestUser user = shared.newUser("often");
    api.awaitAccepted(user.key());
    for (String cron : List.of("*/5 * * * *", "0,10 9 * * 1")) {
      ApiClient.Response refused =
          api.post(
              "/v1/schedules",
              user.key(),
              "{\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"recurring\","
                  + " \"cronExpression\": \""
                  + cron
                  + "\"}");
      assertThat(refused.status()).as(cron).isEqualTo(400);
      assertThat(refused.text("message"))
          .startsWith("cronExpression fires every")
          .endsWith("schedules may fire at most every 900 s");
    }
  }
}
