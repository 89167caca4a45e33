package dev.threadline.api.threads;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiTest;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Thread CRUD, listing and every 400/404 of thread creation, over real HTTP. */
class ThreadsMockServerTest extends SharedApiTest {
  @Test
  void createEmptyGetPatchListDelete() {
    TestUser alice = shared.newUser("alice");
    String agentId =
        api.post("/v1/agents", alice.key(), "{\"name\": \"Helper\", \"model\": \"m\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();
    Instant before = Instant.now().minusSeconds(2);

    ApiClient.Response created =
        api.post(
            "/v1/threads",
            alice.key(),
            "{\"title\": \"Plans\", \"agentId\": \""
                + agentId
                + "\", \"environmentId\": \"env_web\", \"appId\": \"app-1\", \"metadata\":"
                + " {\"team\": \"blue\", \"n\": 2}}");

    assertThat(created.status()).isEqualTo(201);
    JsonNode thread = created.json().get("thread");
    String id = thread.get("id").asString();
    assertThat(id).matches("thread_[a-z0-9]{20}");
    assertThat(created.header("Location")).isEqualTo("/v1/threads/" + id);
    assertThat(fields(thread))
        .containsExactly(
            "id",
            "userId",
            "environmentId",
            "agentId",
            "title",
            "status",
            "messageCount",
            "inputTokens",
            "outputTokens",
            "totalCost",
            "appId",
            "metadata",
            "createdAt",
            "updatedAt");
    assertThat(thread.get("userId").asString()).isEqualTo(alice.userId());
    assertThat(thread.get("environmentId").asString()).isEqualTo("env_web");
    assertThat(thread.get("agentId").asString()).isEqualTo(agentId);
    assertThat(thread.get("title").asString()).isEqualTo("Plans");
    assertThat(thread.get("status").asString()).isEqualTo("active");
    assertThat(thread.get("messageCount").asLong()).isZero();
    assertThat(thread.get("totalCost").asDouble()).isZero();
    assertThat(thread.get("appId").asString()).isEqualTo("app-1");
    assertThat(thread.get("metadata").get("team").asString()).isEqualTo("blue");
    assertThat(thread.get("metadata").get("n").asInt()).isEqualTo(2);
    assertThat(Instant.parse(thread.get("createdAt").asString())).isAfter(before);
    assertThat(thread.get("updatedAt").asString()).endsWith("Z");
    ConversationThread stored =
        shared
            .client()
            .resources(ConversationThread.class)
            .inNamespace(alice.namespace())
            .withName(id.replace('_', '-'))
            .get();
    assertThat(stored.getSpec().getAgent()).isEqualTo(agentId.replace('_', '-'));
    assertThat(stored.getSpec().getEnvironment()).isEqualTo("env-web");

    assertThat(api.get("/v1/threads/" + id, alice.key()).json().get("thread")).isEqualTo(thread);

    ApiClient.Response patched =
        api.patch(
            "/v1/threads/" + id,
            alice.key(),
            "{\"title\": \"Renamed\", \"metadata\": {\"team\": \"red\"}}");
    assertThat(patched.status()).isEqualTo(200);
    JsonNode updated = patched.json().get("thread");
    assertThat(updated.get("title").asString()).isEqualTo("Renamed");
    assertThat(updated.get("metadata").toString()).isEqualTo("{\"team\":\"red\"}");
    assertThat(updated.get("appId").asString()).isEqualTo("app-1");
    assertThat(Instant.parse(updated.get("updatedAt").asString()))
        .isAfterOrEqualTo(Instant.parse(thread.get("updatedAt").asString()));
    assertThat(
            api.patch("/v1/threads/" + id, alice.key(), "{\"title\": \"\"}")
                .json()
                .get("thread")
                .get("title")
                .isNull())
        .isTrue();

    ApiClient.Response list = api.get("/v1/threads", alice.key());
    assertThat(list.json().get("total_count").asInt()).isEqualTo(1);
    assertThat(fields(list.json().get("data").get(0)))
        .containsExactly("id", "title", "status", "messageCount", "totalCost", "createdAt");

    ApiClient.Response deleted = api.delete("/v1/threads/" + id, alice.key());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
    assertError(
        api.get("/v1/threads/" + id, alice.key()), 404, "Not Found", "Thread " + id + " not found");
    assertError(
        api.delete("/v1/threads/" + id, alice.key()),
        404,
        "Not Found",
        "Thread " + id + " not found");
  }

  @Test
  void messagesWithAScheduleCreateTheThreadAndItsScheduleWithoutRunningNow() {
    TestUser ivy = shared.newUser("ivy");

    var created =
        api.post(
            "/v1/threads",
            ivy.key(),
            "{\"messages\": [{\"role\": \"user\", \"content\": \"Send the digest\"}], \"schedule\":"
                + " {\"type\": \"recurring\", \"name\": \"Digest\", \"cronExpression\": \"0 9 * *"
                + " 1-5\", \"timezone\": \"Europe/Paris\"}}");

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode schedule = created.json().get("schedule");
    assertThat(schedule.get("id").asString()).startsWith("sched_");
    assertThat(schedule.get("name").asString()).isEqualTo("Digest");
    assertThat(schedule.get("scheduleType").asString()).isEqualTo("recurring");
    assertThat(schedule.get("cronExpression").asString()).isEqualTo("0 9 * * 1-5");
    assertThat(schedule.get("enabled").asBoolean()).isTrue();
    assertThat(schedule.get("webhooks")).as("none given").isEmpty();
    assertThat(created.json().get("thread").get("id").asString()).startsWith("thread_");
    assertThat(shared.client().resources(Run.class).inNamespace(ivy.namespace()).list().getItems())
        .isEmpty();
    var stored = api.get("/v1/schedules/" + schedule.get("id").asString(), ivy.key());
    assertThat(stored.status()).isEqualTo(200);
    assertThat(stored.json().get("schedule").get("task").asString()).isEqualTo("Send the digest");
  }

  @Test
  void emptyBodyMakesAnEmptyThreadAndTheTitleDefaultsToTheFirstMessage() {
    TestUser bob = shared.newUser("bob");

    JsonNode empty = api.post("/v1/threads", bob.key(), "{}").json().get("thread");
    JsonNode titled =
        api.post(
                "/v1/threads",
                bob.key(),
                "{\"task\": \"Summarise the report\\nwith details\", \"stream\": false}")
            .json()
            .get("thread");

    assertThat(empty.get("title").isNull()).isTrue();
    assertThat(empty.get("metadata").toString()).isEqualTo("{}");
    assertThat(empty.get("environmentId").isNull()).isTrue();
    assertThat(titled.get("title").asString()).isEqualTo("Summarise the report");
  }

  @Test
  void listFiltersSortsNewestFirstAndPaginates() {
    TestUser carol = shared.newUser("carol");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ids.add(
          api.post(
                  "/v1/threads",
                  carol.key(),
                  "{\"appId\": \""
                      + (i % 2 == 0 ? "even" : "odd")
                      + "\", \"environmentId\": \"env_e"
                      + i
                      + "\"}")
              .json()
              .get("thread")
              .get("id")
              .asString());
    }
    String ran =
        api.post(
                "/v1/threads",
                carol.key(),
                "{\"task\": \"hi\", \"stream\": false, \"appId\": \"even\"}")
            .json()
            .get("thread")
            .get("id")
            .asString();

    assertThat(ids(api.get("/v1/threads", carol.key())))
        .containsExactly(ran, ids.get(3), ids.get(2), ids.get(1), ids.get(0));
    ApiClient.Response first = api.get("/v1/threads?limit=2", carol.key());
    assertThat(ids(first)).containsExactly(ran, ids.get(3));
    assertThat(first.json().get("has_more").asBoolean()).isTrue();
    assertThat(first.json().get("total_count").asInt()).isEqualTo(5);
    ApiClient.Response last = api.get("/v1/threads?limit=2&offset=4", carol.key());
    assertThat(ids(last)).containsExactly(ids.get(0));
    assertThat(last.json().get("has_more").asBoolean()).isFalse();
    assertThat(ids(api.get("/v1/threads?appId=even", carol.key())))
        .containsExactly(ran, ids.get(2), ids.get(0));
    assertThat(ids(api.get("/v1/threads?environmentId=env_e1", carol.key())))
        .containsExactly(ids.get(1));
    assertThat(ids(api.get("/v1/threads?environmentId=nonsense", carol.key()))).isEmpty();
    assertThat(ids(api.get("/v1/threads?status=completed", carol.key()))).containsExactly(ran);
    assertThat(ids(api.get("/v1/threads?status=active&appId=odd", carol.key())))
        .containsExactly(ids.get(3), ids.get(1));
    assertThat(ids(api.get("/v1/threads?agentId=agent_none", carol.key()))).isEmpty();
    assertError(
        api.get("/v1/threads?status=done", carol.key()),
        400,
        "Bad Request",
        "status must be one of active, running, completed, failed, cancelled");
    assertError(
        api.get("/v1/threads?limit=0", carol.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
    assertError(
        api.get("/v1/threads?limit=101", carol.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
  }

  @Test
  void listFiltersByTheScheduleThatStartedTheThread() {
    TestUser erin = shared.newUser("erin");
    String scheduled =
        api.post("/v1/threads", erin.key(), "{}").json().get("thread").get("id").asString();
    String other =
        api.post("/v1/threads", erin.key(), "{}").json().get("thread").get("id").asString();
    shared
        .client()
        .resources(ConversationThread.class)
        .inNamespace(erin.namespace())
        .withName(ResourceIds.toName(scheduled).orElseThrow())
        .edit(thread -> {
          Map<String, String> labels = new HashMap<>();
          if (thread.getMetadata().getLabels() != null) {
            labels.putAll(thread.getMetadata().getLabels());
          }
          labels.put(Labels.SCHEDULE, "sched-nightly");
          thread.getMetadata().setLabels(labels);
          return thread;
        });

    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() ->
            assertThat(ids(api.get("/v1/threads?scheduleId=sched_nightly", erin.key())))
                .containsExactly(scheduled));
    assertThat(ids(api.get("/v1/threads", erin.key()))).containsExactly(other, scheduled);
    assertThat(ids(api.get("/v1/threads?scheduleId=sched_other", erin.key()))).isEmpty();
    assertThat(ids(api.get("/v1/threads?scheduleId=nonsense", erin.key()))).isEmpty();
  }

  @Test
  void deletingAThreadDeletesItsRuns() {
    TestUser dave = shared.newUser("dave");
    String id =
        api.post("/v1/threads", dave.key(), "{\"task\": \"hello\", \"stream\": false}")
            .json()
            .get("thread")
            .get("id")
            .asString();
    assertThat(shared.client().resources(Run.class).inNamespace(dave.namespace()).list().getItems())
        .hasSize(1);

    assertThat(api.delete("/v1/threads/" + id, dave.key()).status()).isEqualTo(200);

    // Runs are created with the usage finalizer: deleted, they stay until the operator (not running
    // here) has counted them.
    assertThat(shared.client().resources(Run.class).inNamespace(dave.namespace()).list().getItems())
        .allSatisfy(run -> assertThat(run.getMetadata().getDeletionTimestamp()).isNotNull());
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(dave.namespace())
                .list()
                .getItems())
        .isEmpty();
  }

  @Test
  void anotherUsersThreadAndMalformedIdsAreNotFound() {
    TestUser erin = shared.newUser("erin");
    TestUser frank = shared.newUser("frank");
    String id =
        api.post("/v1/threads", erin.key(), "{\"title\": \"Mine\"}")
            .json()
            .get("thread")
            .get("id")
            .asString();
    String notFound = "Thread " + id + " not found";

    assertError(api.get("/v1/threads/" + id, frank.key()), 404, "Not Found", notFound);
    assertError(
        api.patch("/v1/threads/" + id, frank.key(), "{\"title\": \"Stolen\"}"),
        404,
        "Not Found",
        notFound);
    assertError(api.delete("/v1/threads/" + id, frank.key()), 404, "Not Found", notFound);
    assertError(
        api.get("/v1/threads/" + id + "/messages", frank.key()), 404, "Not Found", notFound);
    assertError(api.get("/v1/threads/" + id + "/logs", frank.key()), 404, "Not Found", notFound);
    assertError(api.get("/v1/threads/" + id + "/diffs", frank.key()), 404, "Not Found", notFound);
    assertError(
        api.post("/v1/threads/" + id + "/cancel", frank.key(), "{}"), 404, "Not Found", notFound);
    assertThat(api.get("/v1/threads", frank.key()).json().get("total_count").asInt()).isZero();
    for (String malformed :
        List.of("thread_UPPER", "not_a_thread", "agent_abc", "thread-abc", "thread_")) {
      assertError(
          api.get("/v1/threads/" + malformed, erin.key()),
          404,
          "Not Found",
          "Thread " + malformed + " not found");
    }
    assertThat(
            api.get("/v1/threads/" + id, erin.key()).json().get("thread").get("title").asString())
        .isEqualTo("Mine");
  }

  @Test
  void invalidCreateRequestsAre400NamingTheFieldAndLeaveNoThread() {
    TestUser gina = shared.newUser("gina");
    String tooBig =
        Base64.getEncoder().encodeToString(new byte[AttachmentRules.MAX_FILE_BYTES + 1]);
    String big = Base64.getEncoder().encodeToString(new byte[400 * 1024]);

    assertBadRequest(
        gina,
        "{\"agentId\": \"agent_missing\"}",
        "agentId does not name an existing agent: agent_missing");
    assertBadRequest(
        gina, "{\"agentId\": \"env_x\"}", "agentId does not name an existing agent: env_x");
    assertBadRequest(
        gina,
        "{\"environmentId\": \"prod\"}",
        "environmentId must be an environment id (env_…): prod");
    assertBadRequest(gina, "{\"metadata\": [1]}", "metadata must be an object");
    assertBadRequest(gina, "{\"metadata\": \"x\"}", "metadata must be an object");
    assertBadRequest(
        gina, "{\"title\": \"" + "t".repeat(501) + "\"}", "title must be at most 500 characters");
    assertBadRequest(gina, "{\"appId\": \" \"}", "appId must not be blank");
    assertBadRequest(gina, "{\"stream\": \"no\", \"task\": \"x\"}", "stream must be a boolean");
    assertBadRequest(
        gina,
        "{\"messages\": [{\"role\": \"assistant\", \"content\": \"hi\"}]}",
        "messages[0].role must be user");
    assertBadRequest(
        gina,
        "{\"messages\": [{\"role\": \"user\", \"content\": \" \"}]}",
        "messages[0].content must not be blank");
    assertBadRequest(
        gina, "{\"messages\": [{\"role\": \"user\"}]}", "messages[0].content is required");
    assertBadRequest(gina, "{\"messages\": \"hi\"}", "messages must be an array");
    assertBadRequest(
        gina,
        "{\"task\": \"a\", \"messages\": [{\"content\": \"b\"}]}",
        "task cannot be combined with messages (it is an alias for the first message)");
    assertBadRequest(
        gina,
        "{\"schedule\": {\"type\": \"recurring\", \"cronExpression\": \"0 9 * * *\"}}",
        "schedule needs messages or task: nothing to schedule");
    assertBadRequest(
        gina,
        "{\"task\": \"daily\", \"schedule\": {\"type\": \"recurring\", \"cronExpression\": \"61 9 *"
            + " * *\"}}",
        "schedule.cronExpression is invalid: Invalid cron expression \"61 9 * * *\": Failed to"
            + " parse cron expression. Value 61 not in range [0, 59]");
    assertBadRequest(
        gina,
        "{\"attachments\": [{\"name\": \"a.txt\", \"content\": \"aGk=\"}]}",
        "attachments need a message (messages or task)");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"a.txt\"}"),
        "attachments[0] needs content (base64) or url");
    assertBadRequest(
        gina,
        withAttachments(
            "{\"name\": \"a.txt\", \"content\": \"aGk=\", \"url\": \"https://x.dev/a\"}"),
        "attachments[0] takes content or url, not both");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"a.txt\", \"content\": \"not base64!\"}"),
        "attachments[0].content must be base64");
    assertBadRequest(
        gina, withAttachments("{\"content\": \"aGk=\"}"), "attachments[0].name is required");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"../etc/passwd\", \"content\": \"aGk=\"}"),
        "attachments[0].name must be a file name without folders");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"a\", \"url\": \"ftp://x.dev/a\"}"),
        "attachments[0].url must be an http or https URL of at most 2048 characters");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"a\", \"url\": \"https://x.dev/a\", \"mediaType\": \"text\"}"),
        "attachments[0].mediaType must be a media type such as text/plain");
    assertBadRequest(
        gina,
        withAttachments("{\"name\": \"a\", \"content\": \"" + tooBig + "\"}"),
        "attachments[0].content must be at most 512 KiB (decoded); give larger files by url");
    assertBadRequest(
        gina,
        withAttachments(
            "{\"name\": \"a\", \"content\": \""
                + big
                + "\"}, {\"name\": \"b\", \"content\": \""
                + big
                + "\"}"),
        "attachments must be at most 768 KiB in total (decoded); give larger files by url");
    assertBadRequest(
        gina,
        withAttachments(
            String.join(
                ", ", Collections.nCopies(11, "{\"name\": \"a\", \"url\": \"https://x.dev/a\"}"))),
        "attachments must hold at most 10 files");
    assertBadRequest(gina, "[]", "Request body must be an object");

    assertThat(api.get("/v1/threads", gina.key()).json().get("total_count").asInt()).isZero();
  }

  @Test
  void attachmentsAndSeveralMessagesGoIntoTheRun() {
    TestUser hank = shared.newUser("hank");

    String id =
        api.post(
                "/v1/threads",
                hank.key(),
                "{\"stream\": false, \"messages\": [{\"content\": \"Read this\"}, {\"role\":"
                    + " \"user\", \"content\": \"and summarise\"}], \"attachments\": [{\"name\":"
                    + " \"a.txt\", \"mediaType\": \"Text/Plain\", \"content\": \"aGVs\\nbG8=\"},"
                    + " {\"name\": \"b.pdf\", \"url\": \"https://files.dev/b.pdf\"}]}")
            .json()
            .get("thread")
            .get("id")
            .asString();

    Run run =
        shared
            .client()
            .resources(Run.class)
            .inNamespace(hank.namespace())
            .withName("run-" + id.substring("thread_".length()) + "-1")
            .get();
    assertThat(run.getSpec().getMessage()).isEqualTo("Read this\n\nand summarise");
    assertThat(run.getSpec().getAttachments()).hasSize(2);
    assertThat(run.getSpec().getAttachments().get(0).getName()).isEqualTo("a.txt");
    assertThat(run.getSpec().getAttachments().get(0).getMediaType()).isEqualTo("text/plain");
    assertThat(run.getSpec().getAttachments().get(0).getContent()).isEqualTo("aGVsbG8=");
    assertThat(run.getSpec().getAttachments().get(1).getUrl()).isEqualTo("https://files.dev/b.pdf");
    assertThat(run.getSpec().getAttachments().get(1).getContent()).isNull();
  }

  private static String withAttachments(String items) {
    return "{\"task\": \"look\", \"attachments\": [" + items + "]}";
  }

  @Test
  void aRefusedScheduleNeverWritesTheThread() {
    TestUser hal = shared.newUser("hal");
    List<String> added = new CopyOnWriteArrayList<>();
    try (Watch watch =
        shared
            .client()
            .resources(ConversationThread.class)
            .inNamespace(hal.namespace())
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, ConversationThread thread) {
                    added.add(action + " " + thread.getSpec().getTitle());
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      assertBadRequest(
          hal,
          "{\"title\": \"refused\", \"task\": \"daily\", \"schedule\": {\"type\": \"recurring\","
              + " \"cronExpression\": \"61 9 * * *\"}}",
          "schedule.cronExpression is invalid: Invalid cron expression \"61 9 * * *\": Failed to"
              + " parse cron expression. Value 61 not in range [0, 59]");
      assertThat(api.post("/v1/threads", hal.key(), "{\"title\": \"accepted\"}").status())
          .isEqualTo(201);

      // Watch events come in order: had the refused thread been written, it would come first.
      await().atMost(Duration.ofSeconds(10)).until(() -> added.contains("ADDED accepted"));
      assertThat(added).first().isEqualTo("ADDED accepted");
      assertThat(added).noneMatch(event -> event.endsWith("refused"));
    }
  }

  private static void assertBadRequest(TestUser user, String body, String message) {
    assertError(api.post("/v1/threads", user.key(), body), 400, "Bad Request", message);
  }

  private static List<String> ids(ApiClient.Response list) {
    List<String> ids = new ArrayList<>();
    list.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    return ids;
  }

  private static List<String> fields(JsonNode node) {
    return new ArrayList<>(node.propertyNames());
  }
}
