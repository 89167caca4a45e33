package dev.threadline.api.schedules;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleStatus;
import dev.threadline.crds.thread.ConversationThread;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SchedulesMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() throws IOException {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void recurringScheduleIsCreatedReadPatchedListedAndDeleted() {
    TestUser alice = shared.newUser("alice");
    Instant before = Instant.now();

    ApiClient.Response created =
        api.post(
            "/v1/schedules",
            alice.key(),
            """
            {"name": "Daily report", "task": "Hello! Summarise yesterday.", "scheduleType": "recurring",
             "cronExpression": "0 9 * * 1-5", "timezone": "Europe/Berlin", "agentId": "agent_helper",
             "environmentId": "env_main", "description": "Mornings", "metadata": {"team": "a", "n": 1}}\
            """);

    assertThat(created.status()).isEqualTo(201);
    JsonNode schedule = created.json().get("schedule");
    String id = schedule.get("id").asString();
    assertThat(id).matches("sched_[a-z0-9]{20}");
    assertThat(created.header("Location")).isEqualTo("/v1/schedules/" + id);
    assertThat(schedule.get("userId").asString()).isEqualTo(alice.userId());
    assertThat(schedule.get("name").asString()).isEqualTo("Daily report");
    assertThat(schedule.get("task").asString()).isEqualTo("Hello! Summarise yesterday.");
    assertThat(schedule.get("scheduleType").asString()).isEqualTo("recurring");
    assertThat(schedule.get("cronExpression").asString()).isEqualTo("0 9 * * 1-5");
    assertThat(schedule.get("scheduledTime").isNull()).isTrue();
    assertThat(schedule.get("timezone").asString()).isEqualTo("Europe/Berlin");
    assertThat(schedule.get("enabled").asBoolean()).isTrue();
    assertThat(schedule.get("agentId").asString()).isEqualTo("agent_helper");
    assertThat(schedule.get("environmentId").asString()).isEqualTo("env_main");
    assertThat(schedule.get("metadata").get("team").asString()).isEqualTo("a");
    String nextRunAt = schedule.get("nextRunAt").asString();
    assertThat(nextRunAt).endsWith("Z");
    assertThat(Instant.parse(nextRunAt)).isAfter(before);
    assertThat(Instant.parse(nextRunAt).atZone(java.time.ZoneId.of("Europe/Berlin")).getHour())
        .isEqualTo(9);
    assertThat(schedule.get("lastRunAt").isNull()).isTrue();
    assertThat(schedule.get("runCount").asLong()).isZero();
    assertThat(schedule.get("totalCost").asDouble()).isZero();
    assertThat(schedule.get("successCount").asLong()).isZero();
    assertThat(schedule.get("failureCount").asLong()).isZero();
    assertThat(schedule.get("createdAt").asString()).endsWith("Z");
    Schedule stored = schedule(alice, id);
    assertThat(stored.getSpec().getAgent()).isEqualTo("agent-helper");
    assertThat(stored.getSpec().getEnvironment()).isEqualTo("env-main");
    assertThat(stored.getSpec().getEnabled()).isTrue();

    assertThat(api.get("/v1/schedules/" + id, alice.key()).json().get("schedule"))
        .isEqualTo(schedule);

    ApiClient.Response patched =
        api.patch(
            "/v1/schedules/" + id,
            alice.key(),
            "{\"name\": \"Hourly report\", \"task\": \"Hi again\", \"cronExpression\": \"0 * * *"
                + " *\", \"timezone\": \"UTC\"}");
    assertThat(patched.status()).isEqualTo(200);
    JsonNode updated = patched.json().get("schedule");
    assertThat(updated.get("name").asString()).isEqualTo("Hourly report");
    assertThat(updated.get("task").asString()).isEqualTo("Hi again");
    assertThat(updated.get("cronExpression").asString()).isEqualTo("0 * * * *");
    assertThat(updated.get("timezone").asString()).isEqualTo("UTC");
    assertThat(Instant.parse(updated.get("nextRunAt").asString()))
        .isEqualTo(Instant.now().truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS));
    assertThat(updated.get("description").asString()).isEqualTo("Mornings");

    ApiClient.Response list = api.get("/v1/schedules", alice.key());
    assertThat(list.text("object")).isEqualTo("list");
    assertThat(list.json().get("total_count").asInt()).isEqualTo(1);
    assertThat(list.json().get("data").get(0).get("id").asString()).isEqualTo(id);
    assertThat(list.json().get("stats").toString())
        .isEqualTo("{\"total\":1,\"enabled\":1,\"disabled\":0}");

    ApiClient.Response deleted = api.delete("/v1/schedules/" + id, alice.key());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
    assertError(
        api.get("/v1/schedules/" + id, alice.key()),
        404,
        "Not Found",
        "Schedule " + id + " not found");
    assertError(
        api.delete("/v1/schedules/" + id, alice.key()),
        404,
        "Not Found",
        "Schedule " + id + " not found");
  }

  @Test
  void oneTimeScheduleRunsAtItsScheduledTime() {
    TestUser bea = shared.newUser("bea");
    Instant at = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);

    JsonNode schedule =
        api.post(
                "/v1/schedules",
                bea.key(),
                """
                {"name": "Once", "task": "Hello", "scheduleType": "one-time", "scheduledTime": "%s", "enabled": true}\
                """
                    .formatted(at.atOffset(java.time.ZoneOffset.ofHours(2))))
            .json()
            .get("schedule");

    assertThat(schedule.get("scheduledTime").asString()).isEqualTo(at.toString());
    assertThat(schedule.get("nextRunAt").asString())
        .isEqualTo(schedule.get("scheduledTime").asString());
    assertThat(schedule.get("cronExpression").isNull()).isTrue();
    assertThat(schedule.get("timezone").asString()).isEqualTo("UTC");

    // A local date-time is read in the schedule's zone.
    JsonNode local =
        api.post(
                "/v1/schedules",
                bea.key(),
                """
                {"name": "Local", "task": "Hello", "scheduleType": "one-time", "scheduledTime": "2099-01-01T09:00:00",
                 "timezone": "America/New_York"}\
                """)
            .json()
            .get("schedule");
    assertThat(local.get("nextRunAt").asString()).isEqualTo("2099-01-01T14:00:00Z");
  }

  @Test
  void badInputIs400NamingTheField() {
    TestUser carl = shared.newUser("carl");
    String recurring = "\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"recurring\"";
    String oneTime = "\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"one-time\"";

    assertError(
        post(
            carl,
            "\"task\": \"t\", \"scheduleType\": \"recurring\", \"cronExpression\": \"* * * * *\""),
        400,
        "Bad Request",
        "name is required");
    assertError(
        post(
            carl,
            "\"name\": \"n\", \"scheduleType\": \"recurring\", \"cronExpression\": \"* * * * *\""),
        400,
        "Bad Request",
        "task is required");
    assertError(
        post(carl, "\"name\": \"n\", \"task\": \"t\""),
        400,
        "Bad Request",
        "scheduleType is required");
    assertError(
        post(carl, "\"name\": \"n\", \"task\": \"t\", \"scheduleType\": \"weekly\""),
        400,
        "Bad Request",
        "scheduleType must be one of one-time, recurring");
    assertError(
        post(carl, recurring),
        400,
        "Bad Request",
        "cronExpression is required for recurring schedules");
    assertError(
        post(carl, recurring + ", \"cronExpression\": \"61 * * * *\""),
        400,
        "Bad Request",
        "cronExpression is invalid: Invalid cron expression \"61 * * * *\": Failed to parse cron"
            + " expression. Value 61 not in range [0, 59]");
    assertError(
        post(carl, recurring + ", \"cronExpression\": \"0 0 31 2 *\""),
        400,
        "Bad Request",
        "cronExpression \"0 0 31 2 *\" never fires (no date matches it, e.g. 31 February)");
    assertThat(post(carl, recurring + ", \"cronExpression\": \"* * * *\"").text("message"))
        .startsWith("cronExpression must have 5 fields");
    assertThat(
            post(
                    carl,
                    recurring
                        + ", \"cronExpression\": \"* * * * *\", \"timezone\": \"Mars/Olympus\"")
                .text("message"))
        .startsWith("timezone is invalid: Unknown timezone \"Mars/Olympus\"");
    assertError(
        post(carl, oneTime),
        400,
        "Bad Request",
        "scheduledTime is required for one-time schedules");
    assertError(
        post(carl, oneTime + ", \"scheduledTime\": \"next tuesday\""),
        400,
        "Bad Request",
        "scheduledTime must be an ISO 8601 date-time such as 2026-12-24T09:00:00Z");
    assertError(
        post(carl, oneTime + ", \"scheduledTime\": \"2020-01-01T00:00:00Z\""),
        400,
        "Bad Request",
        "scheduledTime must be in the future");
    assertError(
        post(carl, oneTime + ", \"scheduledTime\": \"+999999999-12-31T23:59:59Z\""),
        400,
        "Bad Request",
        "scheduledTime must be no later than 9999-12-31T23:59:59Z");
    assertError(
        post(
            carl,
            oneTime
                + ", \"scheduledTime\": \"2099-01-01T00:00:00Z\", \"cronExpression\": \"* * * *"
                + " *\""),
        400,
        "Bad Request",
        "cronExpression applies only to recurring schedules");
    assertError(
        post(carl, recurring + ", \"cronExpression\": \"* * * * *\", \"agentId\": \"env_x\""),
        400,
        "Bad Request",
        "agentId must be an id of the form agent_…");
    assertError(
        post(carl, recurring + ", \"cronExpression\": \"* * * * *\", \"enabled\": \"yes\""),
        400,
        "Bad Request",
        "enabled must be a boolean");
    assertThat(api.get("/v1/schedules", carl.key()).json().get("total_count").asInt()).isZero();

    String id =
        post(carl, recurring + ", \"cronExpression\": \"* * * * *\"")
            .json()
            .get("schedule")
            .get("id")
            .asString();
    assertThat(
            api.patch("/v1/schedules/" + id, carl.key(), "{\"cronExpression\": \"* * 32 * *\"}")
                .text("message"))
        .startsWith("cronExpression is invalid");
    assertError(
        api.patch("/v1/schedules/" + id, carl.key(), "{\"cronExpression\": \"0 0 30 2 *\"}"),
        400,
        "Bad Request",
        "cronExpression \"0 0 30 2 *\" never fires (no date matches it, e.g. 31 February)");
    assertError(
        api.patch("/v1/schedules/" + id, carl.key(), "{\"name\": \"  \"}"),
        400,
        "Bad Request",
        "name must not be blank");
    String once =
        post(carl, oneTime + ", \"scheduledTime\": \"2099-01-01T00:00:00Z\"")
            .json()
            .get("schedule")
            .get("id")
            .asString();
    assertError(
        api.patch("/v1/schedules/" + once, carl.key(), "{\"cronExpression\": \"* * * * *\"}"),
        400,
        "Bad Request",
        "cronExpression applies only to recurring schedules");

    assertError(
        api.get("/v1/schedules?enabled=maybe", carl.key()),
        400,
        "Bad Request",
        "enabled must be true or false");
    assertError(
        api.get("/v1/schedules?scheduleType=daily", carl.key()),
        400,
        "Bad Request",
        "scheduleType must be one of one-time, recurring");
    assertError(
        api.get("/v1/schedules?limit=101", carl.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
  }

  @Test
  void listFiltersPagesAndCountsStatsOverEveryMatch() {
    TestUser dora = shared.newUser("dora");
    String a =
        create(
            dora,
            "\"scheduleType\": \"recurring\", \"cronExpression\": \"0 * * * *\", \"agentId\":"
                + " \"agent_x\"");
    String b =
        create(
            dora,
            "\"scheduleType\": \"recurring\", \"cronExpression\": \"0 * * * *\", \"enabled\":"
                + " false");
    String c =
        create(
            dora,
            "\"scheduleType\": \"one-time\", \"scheduledTime\": \"2099-01-01T00:00:00Z\", "
                + "\"appId\": \"app-1\", \"environmentId\": \"env_y\"");

    ApiClient.Response all = api.get("/v1/schedules", dora.key());
    // Oldest first; schedules made within one second are in name order.
    assertThat(ids(all)).containsExactlyInAnyOrder(a, b, c);
    assertThat(all.json().get("stats").toString())
        .isEqualTo("{\"total\":3,\"enabled\":2,\"disabled\":1}");

    ApiClient.Response page = api.get("/v1/schedules?limit=1&offset=1", dora.key());
    assertThat(ids(page)).containsExactly(ids(all).get(1));
    assertThat(page.json().get("has_more").asBoolean()).isTrue();
    assertThat(page.json().get("total_count").asInt()).isEqualTo(3);
    assertThat(page.json().get("stats").get("total").asInt()).isEqualTo(3);

    ApiClient.Response disabled = api.get("/v1/schedules?enabled=false", dora.key());
    assertThat(ids(disabled)).containsExactly(b);
    assertThat(disabled.json().get("stats").toString())
        .isEqualTo("{\"total\":1,\"enabled\":0,\"disabled\":1}");
    assertThat(ids(api.get("/v1/schedules?scheduleType=one-time", dora.key()))).containsExactly(c);
    assertThat(ids(api.get("/v1/schedules?agentId=agent_x", dora.key()))).containsExactly(a);
    assertThat(ids(api.get("/v1/schedules?environmentId=env_y", dora.key()))).containsExactly(c);
    assertThat(ids(api.get("/v1/schedules?appId=app-1", dora.key()))).containsExactly(c);
    assertThat(ids(api.get("/v1/schedules?appId=app-2", dora.key()))).isEmpty();
  }

  @Test
  void enableAndDisableAnswerIdAndEnabledOnly() {
    TestUser eve = shared.newUser("eve");
    String id = create(eve, "\"scheduleType\": \"recurring\", \"cronExpression\": \"0 * * * *\"");

    ApiClient.Response disabled = api.patch("/v1/schedules/" + id + "/disable", eve.key(), null);
    assertThat(disabled.status()).isEqualTo(200);
    assertThat(disabled.body())
        .isEqualTo("{\"schedule\":{\"id\":\"" + id + "\",\"enabled\":false}}");
    JsonNode seen = api.get("/v1/schedules/" + id, eve.key()).json().get("schedule");
    assertThat(seen.get("enabled").asBoolean()).isFalse();
    assertThat(seen.get("nextRunAt").isNull()).isTrue();
    assertThat(schedule(eve, id).getSpec().getEnabled()).isFalse();

    assertThat(api.patch("/v1/schedules/" + id + "/enable", eve.key(), null).body())
        .isEqualTo("{\"schedule\":{\"id\":\"" + id + "\",\"enabled\":true}}");
    assertThat(
            api.patch("/v1/schedules/" + id, eve.key(), "{\"enabled\": false}")
                .json()
                .get("schedule")
                .get("enabled")
                .asBoolean())
        .isFalse();
  }

  @Test
  void aOneTimeScheduleThatHasRunReportsDisabledAndCannotBeReEnabled() {
    TestUser finn = shared.newUser("finn");
    String id =
        create(finn, "\"scheduleType\": \"one-time\", \"scheduledTime\": \"2099-01-01T00:00:00Z\"");
    // What the operator writes when it fires the schedule and its run completes.
    setStatus(
        finn,
        id,
        status -> {
          status.setFiredAt("2099-01-01T00:00:01Z");
          status.setFiredThread("thread-x");
          status.setRunCount(1L);
          status.setSuccessCount(1L);
          status.setFailureCount(0L);
          status.setLastRunAt("2099-01-01T00:00:01Z");
        });

    JsonNode seen = api.get("/v1/schedules/" + id, finn.key()).json().get("schedule");
    assertThat(seen.get("enabled").asBoolean()).isFalse();
    assertThat(seen.get("nextRunAt").isNull()).isTrue();
    assertThat(seen.get("runCount").asLong()).isEqualTo(1);
    assertThat(seen.get("successCount").asLong()).isEqualTo(1);
    assertThat(seen.get("lastRunAt").asString()).isEqualTo("2099-01-01T00:00:01Z");
    assertError(
        api.patch("/v1/schedules/" + id + "/enable", finn.key(), null),
        409,
        "Conflict",
        "Schedule "
            + id
            + " is a one-time schedule that has already run; create a new schedule to run it"
            + " again");
    assertThat(api.patch("/v1/schedules/" + id + "/disable", finn.key(), null).status())
        .isEqualTo(200);
    assertThat(api.get("/v1/schedules?enabled=false", finn.key()).json().get("total_count").asInt())
        .isEqualTo(1);
  }

  @Test
  void triggerCreatesARunningThreadWithTheTaskNowEvenWhenDisabled() {
    TestUser gus = shared.newUser("gus");
    String id =
        create(
            gus,
            "\"scheduleType\": \"recurring\", \"cronExpression\": \"0 0 1 1 *\", \"enabled\":"
                + " false, \"agentId\": \"agent_helper\", \"appId\": \"app-9\"");

    ApiClient.Response triggered = api.post("/v1/schedules/" + id + "/trigger", gus.key(), null);

    assertThat(triggered.status()).isEqualTo(200);
    String threadId = triggered.json().get("thread").get("id").asString();
    assertThat(threadId).matches("thread_[a-z0-9]{20}");
    assertThat(triggered.json().get("thread").get("status").asString()).isEqualTo("running");
    assertThat(triggered.text("message")).contains(threadId);
    String threadName = threadId.replace('_', '-');
    ConversationThread thread =
        shared
            .client()
            .resources(ConversationThread.class)
            .inNamespace(gus.namespace())
            .withName(threadName)
            .get();
    assertThat(thread.getMetadata().getLabels())
        .containsEntry(Labels.SCHEDULE, id.replace('_', '-'));
    assertThat(thread.getSpec().getAgent()).isEqualTo("agent-helper");
    assertThat(thread.getSpec().getAppId()).isEqualTo("app-9");
    Run run =
        shared
            .client()
            .resources(Run.class)
            .inNamespace(gus.namespace())
            .withName("run-" + threadName.substring("thread-".length()) + "-1")
            .get();
    assertThat(run.getSpec().getMessage()).isEqualTo("t");
    assertThat(run.getSpec().getSource()).isEqualTo("schedule");
    assertThat(run.getSpec().getSchedule()).isEqualTo(id.replace('_', '-'));

    String second =
        api.post("/v1/schedules/" + id + "/trigger", gus.key(), null)
            .json()
            .get("thread")
            .get("id")
            .asString();
    assertThat(second).isNotEqualTo(threadId);
  }

  @Test
  void anotherUsersScheduleIsNotFound() {
    TestUser hal = shared.newUser("hal");
    TestUser ida = shared.newUser("ida");
    String id = create(hal, "\"scheduleType\": \"recurring\", \"cronExpression\": \"0 * * * *\"");
    String notFound = "Schedule " + id + " not found";

    assertError(api.get("/v1/schedules/" + id, ida.key()), 404, "Not Found", notFound);
    assertError(
        api.patch("/v1/schedules/" + id, ida.key(), "{\"name\": \"x\"}"),
        404,
        "Not Found",
        notFound);
    assertError(api.delete("/v1/schedules/" + id, ida.key()), 404, "Not Found", notFound);
    assertError(
        api.post("/v1/schedules/" + id + "/trigger", ida.key(), null), 404, "Not Found", notFound);
    assertError(
        api.patch("/v1/schedules/" + id + "/enable", ida.key(), null), 404, "Not Found", notFound);
    assertError(
        api.patch("/v1/schedules/" + id + "/disable", ida.key(), null), 404, "Not Found", notFound);
    assertThat(api.get("/v1/schedules", ida.key()).json().get("total_count").asInt()).isZero();
    assertError(
        api.get("/v1/schedules/agent_abc", ida.key()),
        404,
        "Not Found",
        "Schedule agent_abc not found");
    assertThat(api.get("/v1/schedules/" + id, hal.key()).status()).isEqualTo(200);
  }

  private static ApiClient.Response post(TestUser user, String fields) {
    return api.post("/v1/schedules", user.key(), "{" + fields + "}");
  }

  private static String create(TestUser user, String fields) {
    ApiClient.Response response = post(user, "\"name\": \"n\", \"task\": \"t\", " + fields);
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().get("schedule").get("id").asString();
  }

  private static List<String> ids(ApiClient.Response list) {
    List<String> ids = new ArrayList<>();
    list.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    return ids;
  }

  private static Schedule schedule(TestUser user, String id) {
    return shared
        .client()
        .resources(Schedule.class)
        .inNamespace(user.namespace())
        .withName(id.replace('_', '-'))
        .get();
  }

  private static void setStatus(
      TestUser user, String id, java.util.function.Consumer<ScheduleStatus> change) {
    shared
        .client()
        .resources(Schedule.class)
        .inNamespace(user.namespace())
        .withName(id.replace('_', '-'))
        .editStatus(schedule -> {
          ScheduleStatus status = new ScheduleStatus();
          change.accept(status);
          schedule.setStatus(status);
          return schedule;
        });
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(5))
        .until(() ->
            api.get("/v1/schedules/" + id, user.key())
                    .json()
                    .get("schedule")
                    .get("runCount")
                    .asLong()
                > 0);
  }
}
