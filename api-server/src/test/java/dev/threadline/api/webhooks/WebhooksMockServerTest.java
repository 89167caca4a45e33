package dev.threadline.api.webhooks;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliverySpec;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.crds.webhook.WebhookSubject;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Webhooks on agents, environments and schedules (also a schedule made by {@code POST
 * /v1/threads}): secrets only in the webhooks Secret (never in a spec, a GET or an idempotency
 * record), shown once when generated; PATCH replaces the list, carrying kept secrets over; the
 * delivery records, per tenant.
 */
class WebhooksMockServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String GIVEN =
      "whsec_"
          + Base64.getEncoder()
              .encodeToString("0123456789abcdefghijklmn".getBytes(StandardCharsets.UTF_8));
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void createStoresSecretsInTheWebhooksSecretAndShowsAGeneratedOneOnce() {
    TestUser alice = shared.newUser("alice");

    ApiClient.Response created =
        api.post(
            "/v1/agents",
            alice.key(),
            """
            {"name": "Helper", "model": "m", "webhooks": [
              {"url": "https://hooks.example/generated", "events": ["run.failed"]},
              {"url": "https://hooks.example/given", "secret": "%s"}]}\
            """
                .formatted(GIVEN));

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode agent = created.json().get("agent");
    JsonNode webhooks = agent.get("webhooks");
    assertThat(webhooks).hasSize(2);
    assertThat(webhooks.get(0).get("url").asString()).isEqualTo("https://hooks.example/generated");
    assertThat(webhooks.get(0).get("events").get(0).asString()).isEqualTo("run.failed");
    String generated = webhooks.get(0).get("secret").asString();
    assertThat(generated).startsWith("whsec_");
    assertThat(Base64.getDecoder().decode(generated.substring("whsec_".length()))).hasSize(32);
    assertThat(webhooks.get(1).has("secret")).as("a given secret is never echoed").isFalse();
    assertThat(webhooks.get(1).get("events")).isEmpty();
    assertThat(created.body()).doesNotContain(GIVEN);

    String name = agent.get("id").asString().replace('_', '-');
    Agent stored =
        shared.client().resources(Agent.class).inNamespace(alice.namespace()).withName(name).get();
    List<WebhookEndpoint> endpoints = stored.getSpec().getWebhooks();
    assertThat(endpoints)
        .extracting(e -> e.getSecretRef().getName())
        .containsOnly(name + "-webhooks");
    assertThat(endpoints)
        .extracting(e -> e.getSecretRef().getKey())
        .containsExactly(
            WebhookSecrets.keyOf("https://hooks.example/generated"),
            WebhookSecrets.keyOf("https://hooks.example/given"));
    Secret secret = assertSecretsLiveInTheOwnedSecret(alice, stored, generated);
    assertThat(secret.getMetadata().getLabels()).containsEntry(WebhookSecrets.RESOURCE_LABEL, name);

    ApiClient.Response fetched = api.get("/v1/agents/" + agent.get("id").asString(), alice.key());
    assertThat(fetched.json().get("agent").get("webhooks").get(0).has("secret")).isFalse();
    assertThat(fetched.body()).doesNotContain(generated).doesNotContain(GIVEN);
    assertThat(api.get("/v1/agents", alice.key()).body())
        .doesNotContain(generated)
        .contains("hooks.example/given");

    assertThat(api.delete("/v1/agents/" + agent.get("id").asString(), alice.key()).status())
        .isEqualTo(200);
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(alice.namespace())
                .withName(name + "-webhooks")
                .get())
        .isNull();
  }

  @Test
  void patchReplacesTheListCarryingKeptSecretsAndDroppingRemovedOnes() {
    TestUser bob = shared.newUser("bob");
    JsonNode schedule =
        api.post(
                "/v1/schedules",
                bob.key(),
                """
                {"name": "n", "task": "t", "scheduleType": "recurring", "cronExpression": "0 9 * * *", "webhooks": [
                  {"url": "https://hooks.example/kept"}, {"url": "https://hooks.example/removed"}]}\
                """)
            .json()
            .get("schedule");
    String id = schedule.get("id").asString();
    String name = id.replace('_', '-');
    String kept = schedule.get("webhooks").get(0).get("secret").asString();
    String keptKey = WebhookSecrets.keyOf("https://hooks.example/kept");

    ApiClient.Response patched =
        api.patch(
            "/v1/schedules/" + id,
            bob.key(),
            """
            {"webhooks": [{"url": "https://hooks.example/kept", "events": ["run.completed"]},
                          {"url": "https://hooks.example/new"},
                          {"url": "https://hooks.example/given", "secret": "%s"}]}\
            """
                .formatted(GIVEN));

    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
    JsonNode webhooks = patched.json().get("schedule").get("webhooks");
    assertThat(webhooks)
        .extracting(w -> w.get("url").asString())
        .containsExactly(
            "https://hooks.example/kept",
            "https://hooks.example/new",
            "https://hooks.example/given");
    assertThat(webhooks.get(0).has("secret")).as("carried over, not generated").isFalse();
    assertThat(webhooks.get(0).get("events").get(0).asString()).isEqualTo("run.completed");
    String fresh = webhooks.get(1).get("secret").asString();
    assertThat(fresh).startsWith("whsec_").isNotEqualTo(kept);
    assertThat(webhooks.get(2).has("secret")).isFalse();
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(bob.namespace())
                    .withName(name + "-webhooks")
                    .get()))
        .isEqualTo(
            Map.of(
                keptKey,
                kept,
                WebhookSecrets.keyOf("https://hooks.example/new"),
                fresh,
                WebhookSecrets.keyOf("https://hooks.example/given"),
                GIVEN));

    // A PATCH without webhooks leaves them and their secrets alone.
    JsonNode renamed =
        api.patch("/v1/schedules/" + id, bob.key(), "{\"name\": \"renamed\"}")
            .json()
            .get("schedule");
    assertThat(renamed.get("webhooks")).hasSize(3);
    assertThat(renamed.toString()).doesNotContain("secret");
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(bob.namespace())
                    .withName(name + "-webhooks")
                    .get()))
        .containsEntry(keptKey, kept)
        .hasSize(3);

    JsonNode cleared =
        api.patch("/v1/schedules/" + id, bob.key(), "{\"webhooks\": []}").json().get("schedule");
    assertThat(cleared.get("webhooks")).isEmpty();
    assertThat(
            shared
                .client()
                .resources(Schedule.class)
                .inNamespace(bob.namespace())
                .withName(name)
                .get()
                .getSpec()
                .getWebhooks())
        .isEmpty();
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(bob.namespace())
                .withName(name + "-webhooks")
                .get())
        .isNull();
  }

  @Test
  void environmentsTakeBuildEventsAndKeepTheirVariablesSecretApart() {
    TestUser carol = shared.newUser("carol");

    ApiClient.Response created =
        api.post(
            "/environments",
            carol.key(),
            """
            {"name": "Env", "environmentVariables": [{"key": "A", "value": "1"}],
             "webhooks": [{"url": "http://ci.example:8080/hook", "events": ["build.ready", "build.failed"]}]}\
            """);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode environment = created.json().get("environment");
    String secret = environment.get("webhooks").get(0).get("secret").asString();
    String id = environment.get("id").asString();
    String name = id.replace('_', '-');
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(carol.namespace())
                    .withName(name + "-webhooks")
                    .get()))
        .isEqualTo(Map.of(WebhookSecrets.keyOf("http://ci.example:8080/hook"), secret));
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(carol.namespace())
                    .withName(EnvironmentValues.secretName(name))
                    .get()))
        .isEqualTo(Map.of("env.A", "1"));
    assertThat(api.get("/environments/" + id, carol.key()).body()).doesNotContain(secret);

    ApiClient.Response patched =
        api.patch(
            "/environments/" + id,
            carol.key(),
            "{\"webhooks\": [{\"url\": \"http://ci.example:8080/hook\", \"events\":"
                + " [\"build.failed\"]}]}");
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
    assertThat(patched.json().get("environment").get("webhooks").get(0).has("secret")).isFalse();
    Environment stored =
        shared
            .client()
            .resources(Environment.class)
            .inNamespace(carol.namespace())
            .withName(name)
            .get();
    assertThat(stored.getSpec().getWebhooks().getFirst().getEvents())
        .containsExactly(WebhookEvent.BUILD_FAILED);
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(carol.namespace())
                    .withName(name + "-webhooks")
                    .get()))
        .isEqualTo(Map.of(WebhookSecrets.keyOf("http://ci.example:8080/hook"), secret));
  }

  @Test
  void badWebhooksAre400sNamingTheField() {
    TestUser dave = shared.newUser("dave");
    String agent =
        api.post("/v1/agents", dave.key(), "{\"name\": \"A\", \"model\": \"m\"}")
            .json()
            .get("agent")
            .get("id")
            .asString();

    assertError(
        api.post(
            "/v1/agents",
            dave.key(),
            """
            {"name": "A", "model": "m", "webhooks": [{"url": "https://a.example"}, {"url": "mailto:x@example.com"}]}\
            """),
        400,
        "Bad Request",
        "webhooks[1].url must be an absolute http:// or https:// URL with a host");
    assertError(
        api.patch(
            "/v1/agents/" + agent,
            dave.key(),
            """
            {"webhooks": [{"url": "https://a.example", "events": ["run.failed", "run.completed", "build.ready"]}]}\
            """),
        400,
        "Bad Request",
        "webhooks[0].events[2] \"build.ready\" applies only to environments; "
            + "agents have run.completed, run.failed, run.cancelled, run.approval_requested");
    assertError(
        api.post(
            "/v1/schedules",
            dave.key(),
            """
            {"name": "n", "task": "t", "scheduleType": "recurring", "cronExpression": "0 9 * * *",
             "webhooks": [{"url": "https://a.example", "secret": "hunter2"}]}\
            """),
        400,
        "Bad Request",
        "webhooks[0].secret must be whsec_ followed by the base64 of at least 24 bytes");
    assertError(
        api.post(
            "/environments",
            dave.key(),
            """
            {"name": "E", "webhooks": [{"url": "https://a.example", "events": ["deploy.done"]}]}\
            """),
        400,
        "Bad Request",
        "webhooks[0].events[0] must be one of run.completed, run.failed, run.cancelled,"
            + " run.approval_requested, build.ready, build.failed");
    assertError(
        api.patch(
            "/v1/agents/" + agent,
            dave.key(),
            """
            {"webhooks": [{"url": "https://a.example/x"}, {"url": "https://a.example/x"}]}\
            """),
        400,
        "Bad Request",
        "webhooks[1].url \"https://a.example/x\" is given twice");
    assertError(
        api.post(
            "/v1/agents", dave.key(), "{\"name\": \"A\", \"model\": \"m\", \"webhooks\": [{}]}"),
        400,
        "Bad Request",
        "webhooks[0].url is required");
    // Nothing was written by the refused requests.
    assertThat(api.get("/v1/agents", dave.key()).json().get("total_count").asInt()).isEqualTo(1);
    assertThat(api.get("/v1/schedules", dave.key()).json().get("total_count").asInt()).isZero();
  }

  /**
   * The shared server allows loopback receivers, as local mode does: every other address the
   * operator would refuse, and every form read differently by different programs, is a 400 naming
   * the field, on each resource that takes webhooks; nothing is written.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://169.254.169.254/latest/meta-data/ | must not point at 169.254.169.254 is a"
            + " link-local address (where cloud metadata endpoints are), never called",
        "http://10.0.0.1/hook | must not point at 10.0.0.1 is a private-network address; allowed"
            + " only with THREADLINE_WEBHOOK_ALLOWED_TARGETS=private",
        "http://0.0.0.0:8080/hook | must not point at 0.0.0.0 is an unspecified, multicast,"
            + " broadcast or reserved address, never called",
        "http://[::ffff:169.254.169.254]/ | must not point at ::ffff:169.254.169.254"
            + " (169.254.169.254) is a link-local address (where cloud metadata endpoints are),"
            + " never called",
        "http://[::ffff:a00:1]/hook | must not point at ::ffff:a00:1 (10.0.0.1) is a"
            + " private-network address; allowed only with"
            + " THREADLINE_WEBHOOK_ALLOWED_TARGETS=private",
        "http://[::]/hook | must not point at :: (0:0:0:0:0:0:0:0) is an unspecified, multicast,"
            + " broadcast or reserved address, never called",
        "http://2130706433/hook | must write an IPv4 address as four decimal numbers 0-255 without"
            + " leading zeros (a.b.c.d): 2130706433 is read as different addresses by different"
            + " programs",
        "http://0177.0.0.1/hook | must write an IPv4 address as four decimal numbers 0-255 without"
            + " leading zeros (a.b.c.d): 0177.0.0.1 is read as different addresses by different"
            + " programs",
        "http://0x7f.1/hook | must write an IPv4 address as four decimal numbers 0-255 without"
            + " leading zeros (a.b.c.d): 0x7f.1 is read as different addresses by different"
            + " programs",
        "http://user:pass@127.0.0.1/hook | must not carry a user name or password (user:pass@)",
        "http://127.0.0.1:99999/hook | must have a port between 1 and 65535",
        "http://[fe80::1%25eth0]/hook | must not name an IPv6 zone (%)",
      })
  void addressesTheOperatorWouldRefuseAre400sNamingTheField(String url, String problem) {
    TestUser mallory = shared.newUser("mallory");
    String webhooks = "[{\"url\": \"https://ok.example/hook\"}, {\"url\": \"" + url + "\"}]";

    assertError(
        api.post(
            "/v1/agents",
            mallory.key(),
            "{\"name\": \"A\", \"model\": \"m\", \"webhooks\": " + webhooks + "}"),
        400,
        "Bad Request",
        "webhooks[1].url " + problem);
    assertError(
        api.post(
            "/environments", mallory.key(), "{\"name\": \"E\", \"webhooks\": " + webhooks + "}"),
        400,
        "Bad Request",
        "webhooks[1].url " + problem);
    assertError(
        api.post(
            "/v1/schedules",
            mallory.key(),
            """
            {"name": "n", "task": "t", "scheduleType": "recurring", "cronExpression": "0 9 * * *",
             "webhooks": %s}\
            """
                .formatted(webhooks)),
        400,
        "Bad Request",
        "webhooks[1].url " + problem);
    assertError(
        api.post(
            "/v1/threads",
            mallory.key(),
            """
            {"task": "t", "schedule": {"type": "recurring", "cronExpression": "0 9 * * *",
             "webhooks": %s}}\
            """
                .formatted(webhooks)),
        400,
        "Bad Request",
        "schedule.webhooks[1].url " + problem);
    assertThat(api.get("/v1/agents", mallory.key()).json().get("total_count").asInt()).isZero();
    assertThat(api.get("/v1/schedules", mallory.key()).json().get("total_count").asInt()).isZero();
    assertThat(api.get("/v1/threads", mallory.key()).json().get("total_count").asInt()).isZero();
  }

  @Test
  void loopbackReceiversAreAcceptedWhereLoopbackIsAllowed() {
    TestUser fay = shared.newUser("fay");

    ApiClient.Response created =
        api.post(
            "/v1/agents",
            fay.key(),
            """
            {"name": "A", "model": "m", "webhooks": [{"url": "http://127.0.0.1:9/hook"},
              {"url": "http://[::ffff:127.0.0.1]:9/hook"}, {"url": "http://[::1]:9/hook"},
              {"url": "http://localhost:9/hook"}]}\
            """);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().get("agent").get("webhooks")).hasSize(4);
  }

  @Test
  void aKubectlSecretRefSurvivesPatchesThatDoNotReplaceIt() {
    TestUser erin = shared.newUser("erin");
    Agent gitops = new Agent();
    gitops.setMetadata(
        new ObjectMetaBuilder().withName("agent-gitops").withNamespace(erin.namespace()).build());
    AgentSpec spec = new AgentSpec();
    spec.setDisplayName("GitOps");
    spec.setProvider("scripted");
    spec.setModel("m");
    spec.setWebhooks(
        new ArrayList<>(
            List.of(
                new WebhookEndpoint(
                    "https://gitops.example/hook",
                    List.of(),
                    new SecretKeyReference("my-signing-secret", "signing")))));
    gitops.setSpec(spec);
    shared.client().resources(Agent.class).inNamespace(erin.namespace()).resource(gitops).create();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> api.get("/v1/agents/agent_gitops", erin.key()).status() == 200);

    ApiClient.Response renamed =
        api.patch("/v1/agents/agent_gitops", erin.key(), "{\"name\": \"Renamed\"}");
    assertThat(renamed.status()).isEqualTo(200);
    assertThat(renamed.json().get("agent").get("webhooks").get(0).get("url").asString())
        .isEqualTo("https://gitops.example/hook");
    assertForeignRef(erin);

    // Listing the same URL again without a secret keeps the reference too; a new URL gets ours.
    ApiClient.Response relisted =
        api.patch(
            "/v1/agents/agent_gitops",
            erin.key(),
            """
            {"webhooks": [{"url": "https://gitops.example/hook", "events": ["run.cancelled"]},
                          {"url": "https://other.example"}]}\
            """);
    assertThat(relisted.status()).as(relisted.body()).isEqualTo(200);
    assertThat(relisted.json().get("agent").get("webhooks").get(0).has("secret")).isFalse();
    assertForeignRef(erin);
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(erin.namespace())
                .withName("agent-gitops-webhooks")
                .get()
                .getData())
        .containsOnlyKeys(WebhookSecrets.keyOf("https://other.example"));
  }

  @Test
  void anIdempotentScheduleCreateReplaysTheGeneratedSecretWithoutRecordingIt() {
    TestUser frank = shared.newUser("frank");
    String body =
        """
        {"name": "n", "task": "t", "scheduleType": "recurring", "cronExpression": "0 9 * * *",
         "webhooks": [{"url": "https://hooks.example/a"}, {"url": "https://hooks.example/b", "secret": "%s"}]}\
        """
            .formatted(GIVEN);

    HttpResponse<String> first = postWithKey("/v1/schedules", frank.key(), body, "wh-1");
    HttpResponse<String> repeat = postWithKey("/v1/schedules", frank.key(), body, "wh-1");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    assertThat(repeat.statusCode()).isEqualTo(201);
    assertThat(repeat.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    JsonNode firstSchedule = JSON.readTree(first.body()).get("schedule");
    JsonNode repeatSchedule = JSON.readTree(repeat.body()).get("schedule");
    String secret = firstSchedule.get("webhooks").get(0).get("secret").asString();
    assertThat(repeatSchedule.get("id")).isEqualTo(firstSchedule.get("id"));
    assertThat(repeatSchedule.get("webhooks").get(0).get("secret").asString()).isEqualTo(secret);
    assertThat(repeatSchedule.get("webhooks").get(1).has("secret")).isFalse();
    assertThat(api.get("/v1/schedules", frank.key()).json().get("total_count").asInt())
        .isEqualTo(1);
    assertRecordsHoldNoSecret(frank, secret);
  }

  @Test
  void aThreadWithAScheduleGivesTheScheduleItsWebhooksAndShowsAGeneratedSecretOnce() {
    TestUser ida = shared.newUser("ida");

    ApiClient.Response created =
        api.post(
            "/v1/threads",
            ida.key(),
            """
            {"task": "Send the digest", "schedule": {"type": "recurring", "name": "Digest", "cronExpression": "0 9 * * 1-5",
              "webhooks": [{"url": "https://hooks.example/generated", "events": ["run.failed"]},
                           {"url": "https://hooks.example/given", "secret": "%s"}]}}\
            """
                .formatted(GIVEN));

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode webhooks = created.json().get("schedule").get("webhooks");
    assertThat(webhooks)
        .extracting(w -> w.get("url").asString())
        .containsExactly("https://hooks.example/generated", "https://hooks.example/given");
    assertThat(webhooks.get(0).get("events").get(0).asString()).isEqualTo("run.failed");
    String generated = webhooks.get(0).get("secret").asString();
    assertThat(Base64.getDecoder().decode(generated.substring("whsec_".length()))).hasSize(32);
    assertThat(webhooks.get(1).has("secret")).as("a given secret is never echoed").isFalse();
    assertThat(created.body()).doesNotContain(GIVEN);

    String id = created.json().get("schedule").get("id").asString();
    String name = id.replace('_', '-');
    Schedule stored =
        shared.client().resources(Schedule.class).inNamespace(ida.namespace()).withName(name).get();
    assertThat(stored.getSpec().getWebhooks())
        .extracting(e -> e.getSecretRef().getName())
        .containsOnly(name + "-webhooks");
    assertThat(stored.getSpec().getWebhooks())
        .extracting(e -> e.getSecretRef().getKey())
        .containsExactly(
            WebhookSecrets.keyOf("https://hooks.example/generated"),
            WebhookSecrets.keyOf("https://hooks.example/given"));
    assertSecretsLiveInTheOwnedSecret(ida, stored, generated);

    ApiClient.Response fetched = api.get("/v1/schedules/" + id, ida.key());
    assertThat(fetched.json().get("schedule").get("webhooks")).hasSize(2);
    assertThat(fetched.body()).doesNotContain(generated).doesNotContain(GIVEN);
  }

  @Test
  void badScheduleWebhooksInAThreadRequestAre400sNamingTheFieldAndWriteNothing() {
    TestUser jack = shared.newUser("jack");
    String thread =
        """
        {"task": "t", "schedule": {"type": "recurring", "cronExpression": "0 9 * * *", "webhooks": %s}}\
        """;

    assertError(
        api.post(
            "/v1/threads",
            jack.key(),
            thread.formatted(
                "[{\"url\": \"https://a.example\"}, {\"url\": \"mailto:x@example.com\"}]")),
        400,
        "Bad Request",
        "schedule.webhooks[1].url must be an absolute http:// or https:// URL with a host");
    assertError(
        api.post("/v1/threads", jack.key(), thread.formatted("[{\"events\": []}]")),
        400,
        "Bad Request",
        "schedule.webhooks[0].url is required");
    assertError(
        api.post(
            "/v1/threads",
            jack.key(),
            thread.formatted(
                "[{\"url\": \"https://a.example\", \"events\": [\"run.failed\","
                    + " \"run.exploded\"]}]")),
        400,
        "Bad Request",
        "schedule.webhooks[0].events[1] must be one of run.completed, run.failed, run.cancelled,"
            + " run.approval_requested");
    assertError(
        api.post(
            "/v1/threads",
            jack.key(),
            thread.formatted("[{\"url\": \"https://a.example\", \"events\": [\"build.ready\"]}]")),
        400,
        "Bad Request",
        "schedule.webhooks[0].events[0] \"build.ready\" applies only to environments; "
            + "schedules have run.completed, run.failed, run.cancelled, run.approval_requested");
    assertError(
        api.post(
            "/v1/threads",
            jack.key(),
            thread.formatted("[{\"url\": \"https://a.example\", \"secret\": \"hunter2\"}]")),
        400,
        "Bad Request",
        "schedule.webhooks[0].secret must be whsec_ followed by the base64 of at least 24 bytes");
    assertError(
        api.post(
            "/v1/threads",
            jack.key(),
            thread.formatted(
                "["
                    + String.join(", ", Collections.nCopies(11, "{\"url\": \"https://a.example\"}"))
                    + "]")),
        400,
        "Bad Request",
        "schedule.webhooks may hold at most 10 items");
    assertError(
        api.post("/v1/threads", jack.key(), thread.formatted("\"https://a.example\"")),
        400,
        "Bad Request",
        "schedule.webhooks must be an array");
    assertError(
        api.post("/v1/threads", jack.key(), thread.formatted("[\"https://a.example\"]")),
        400,
        "Bad Request",
        "schedule.webhooks[0] must be an object");

    // Neither a thread nor a schedule nor a webhooks Secret was left behind.
    assertThat(api.get("/v1/threads", jack.key()).json().get("total_count").asInt()).isZero();
    assertThat(api.get("/v1/schedules", jack.key()).json().get("total_count").asInt()).isZero();
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(jack.namespace())
                .list()
                .getItems())
        .isEmpty();
    assertThat(
            shared
                .client()
                .resources(Schedule.class)
                .inNamespace(jack.namespace())
                .list()
                .getItems())
        .isEmpty();
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(jack.namespace())
                .withLabel(WebhookSecrets.RESOURCE_LABEL)
                .list()
                .getItems())
        .isEmpty();
  }

  @Test
  void anIdempotentThreadWithAScheduleReplaysTheGeneratedSecretWithoutRecordingIt() {
    TestUser kim = shared.newUser("kim");
    String body =
        """
        {"task": "t", "schedule": {"type": "recurring", "cronExpression": "0 9 * * *",
         "webhooks": [{"url": "https://hooks.example/a"}, {"url": "https://hooks.example/b", "secret": "%s"}]}}\
        """
            .formatted(GIVEN);

    HttpResponse<String> first = postWithKey("/v1/threads", kim.key(), body, "thread-wh-1");
    HttpResponse<String> repeat = postWithKey("/v1/threads", kim.key(), body, "thread-wh-1");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    assertThat(repeat.statusCode()).isEqualTo(201);
    assertThat(repeat.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(repeat.headers().firstValue("Location"))
        .isEqualTo(first.headers().firstValue("Location"));
    JsonNode firstBody = JSON.readTree(first.body());
    JsonNode repeatBody = JSON.readTree(repeat.body());
    assertThat(repeatBody)
        .as("the first answer, its generated secret included")
        .isEqualTo(firstBody);
    String secret = firstBody.get("schedule").get("webhooks").get(0).get("secret").asString();
    assertThat(secret).startsWith("whsec_");
    assertThat(repeatBody.get("schedule").get("webhooks").get(1).has("secret")).isFalse();
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(kim.namespace())
                .list()
                .getItems())
        .hasSize(1);
    assertThat(
            shared
                .client()
                .resources(Schedule.class)
                .inNamespace(kim.namespace())
                .list()
                .getItems())
        .hasSize(1);
    assertRecordsHoldNoSecret(kim, secret);
  }

  @Test
  void deliveriesAreListedNewestFirstFilteredAndPerTenant() {
    TestUser grace = shared.newUser("grace");
    TestUser heidi = shared.newUser("heidi");
    delivery(
        grace,
        "msg_1",
        WebhookEvent.RUN_COMPLETED,
        "Run",
        "run-abc-1",
        WebhookDeliveryState.DELIVERED,
        200);
    delivery(
        grace,
        "msg_2",
        WebhookEvent.RUN_FAILED,
        "Run",
        "run-abc-2",
        WebhookDeliveryState.PENDING,
        503);
    delivery(grace, "msg_3", WebhookEvent.BUILD_READY, "Environment", "env-main", null, null);
    delivery(
        heidi,
        "msg_4",
        WebhookEvent.RUN_COMPLETED,
        "Run",
        "run-xyz-1",
        WebhookDeliveryState.FAILED,
        500);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() ->
            api.get("/v1/webhooks/deliveries", grace.key()).json().get("total_count").asInt() == 3);

    ApiClient.Response all = api.get("/v1/webhooks/deliveries", grace.key());
    assertThat(all.status()).isEqualTo(200);
    assertThat(all.text("object")).isEqualTo("list");
    List<String> createdAt = new ArrayList<>();
    all.json().get("data").forEach(item -> createdAt.add(item.get("createdAt").asString()));
    assertThat(createdAt).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    assertThat(all.body())
        .doesNotContain("secretRef")
        .doesNotContain("payload")
        .doesNotContain("msg_4");

    JsonNode one = api.get("/v1/webhooks/deliveries/msg_2", grace.key()).json().get("delivery");
    assertThat(one.get("id").asString()).isEqualTo("msg_2");
    assertThat(one.get("event").asString()).isEqualTo("run.failed");
    assertThat(one.get("subject").get("kind").asString()).isEqualTo("Run");
    assertThat(one.get("subject").get("id").asString()).isEqualTo("run_abc-2");
    assertThat(one.get("configuredOn").get("kind").asString()).isEqualTo("Agent");
    assertThat(one.get("configuredOn").get("id").asString()).isEqualTo("agent_helper");
    assertThat(one.get("url").asString()).isEqualTo("https://hooks.example/msg_2");
    assertThat(one.get("state").asString()).isEqualTo("pending");
    assertThat(one.get("attempts").asInt()).isEqualTo(1);
    assertThat(one.get("lastStatusCode").asInt()).isEqualTo(503);
    assertThat(one.get("nextAttemptAt").asString()).isEqualTo("2026-01-01T00:05:00Z");
    assertThat(one.get("finishedAt").isNull()).isTrue();
    assertThat(one.get("createdAt").asString()).endsWith("Z");
    JsonNode noStatus =
        api.get("/v1/webhooks/deliveries/msg_3", grace.key()).json().get("delivery");
    assertThat(noStatus.get("state").asString()).isEqualTo("pending");
    assertThat(noStatus.get("attempts").asInt()).isZero();

    assertThat(ids(api.get("/v1/webhooks/deliveries?event=run.completed", grace.key())))
        .containsExactly("msg_1");
    assertThat(ids(api.get("/v1/webhooks/deliveries?state=pending", grace.key())))
        .containsExactlyInAnyOrder("msg_2", "msg_3");
    assertThat(ids(api.get("/v1/webhooks/deliveries?subjectId=env_main", grace.key())))
        .containsExactly("msg_3");
    assertThat(ids(api.get("/v1/webhooks/deliveries?subjectId=run_abc-1", grace.key())))
        .containsExactly("msg_1");
    assertThat(ids(api.get("/v1/webhooks/deliveries?subjectId=thread_abc", grace.key())))
        .containsExactlyInAnyOrder("msg_1", "msg_2");
    ApiClient.Response page = api.get("/v1/webhooks/deliveries?limit=2&offset=1", grace.key());
    assertThat(page.json().get("data")).hasSize(2);
    assertThat(page.json().get("has_more").asBoolean()).isFalse();

    assertError(
        api.get("/v1/webhooks/deliveries?state=lost", grace.key()),
        400,
        "Bad Request",
        "state must be one of pending, delivered, failed");
    assertError(
        api.get("/v1/webhooks/deliveries?event=run.exploded", grace.key()),
        400,
        "Bad Request",
        "event must be one of run.completed, run.failed, run.cancelled, run.approval_requested,"
            + " build.ready, build.failed");
    assertError(
        api.get("/v1/webhooks/deliveries/msg_4", grace.key()),
        404,
        "Not Found",
        "Webhook delivery msg_4 not found");
    assertThat(ids(api.get("/v1/webhooks/deliveries", heidi.key()))).containsExactly("msg_4");
  }

  private static void assertForeignRef(TestUser user) {
    Agent stored =
        shared
            .client()
            .resources(Agent.class)
            .inNamespace(user.namespace())
            .withName("agent-gitops")
            .get();
    SecretKeyReference ref = stored.getSpec().getWebhooks().getFirst().getSecretRef();
    assertThat(ref.getName()).isEqualTo("my-signing-secret");
    assertThat(ref.getKey()).isEqualTo("signing");
  }

  private static void delivery(
      TestUser user,
      String messageId,
      WebhookEvent event,
      String subjectKind,
      String subjectName,
      WebhookDeliveryState state,
      Integer statusCode) {
    WebhookDelivery delivery = new WebhookDelivery();
    ObjectMetaBuilder metadata =
        new ObjectMetaBuilder()
            .withNamespace(user.namespace())
            .withName(messageId.replace('_', '-'));
    if ("Run".equals(subjectKind)) {
      // As the operator labels a run's deliveries: with the run's thread.
      metadata.addToLabels(Labels.THREAD, subjectName.replaceAll("^run-(.+)-\\d+$", "thread-$1"));
    }
    delivery.setMetadata(metadata.build());
    WebhookDeliverySpec spec = new WebhookDeliverySpec();
    spec.setMessageId(messageId);
    spec.setEvent(event);
    spec.setSubject(new WebhookSubject(subjectKind, subjectName));
    spec.setConfiguredOn(new WebhookSubject("Agent", "agent-helper"));
    spec.setUrl("https://hooks.example/" + messageId);
    spec.setSecretRef(new SecretKeyReference("agent-helper-webhooks", "wh-0123456789abcdef"));
    spec.setPayload("{\"type\":\"" + event.value() + "\"}");
    delivery.setSpec(spec);
    var resource = shared.client().resources(WebhookDelivery.class).inNamespace(user.namespace());
    WebhookDelivery created = resource.resource(delivery).create();
    if (state != null) {
      WebhookDeliveryStatus status = new WebhookDeliveryStatus();
      status.setState(state);
      status.setAttempts(1);
      status.setLastStatusCode(statusCode);
      status.setLastAttemptAt("2026-01-01T00:00:00Z");
      if (state == WebhookDeliveryState.PENDING) {
        status.setNextAttemptAt("2026-01-01T00:05:00Z");
      } else {
        status.setFinishedAt("2026-01-01T00:00:01Z");
      }
      created.setStatus(status);
      resource.resource(created).updateStatus();
    }
  }

  private static List<String> ids(ApiClient.Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    response.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    return ids;
  }

  private static Map<String, String> decode(Secret secret) {
    assertThat(secret).isNotNull();
    Map<String, String> values = new java.util.HashMap<>();
    secret
        .getData()
        .forEach((key, value) ->
            values.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
    return values;
  }

  private static HttpResponse<String> postWithKey(
      String path, String key, String body, String idempotencyKey) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(shared.baseUrl() + path))
            .timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", idempotencyKey)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The idempotency records (ConfigMaps) never hold a webhook secret, generated or given. */
  private static void assertRecordsHoldNoSecret(TestUser user, String generated) {
    List<ConfigMap> records =
        shared.client().configMaps().inNamespace(user.namespace()).list().getItems();
    assertThat(records).isNotEmpty();
    assertThat(shared.client().getKubernetesSerialization().asJson(records))
        .doesNotContain(generated)
        .doesNotContain(GIVEN);
  }

  /**
   * The generated and the given secret are in {@code <name>-webhooks}, owned by {@code stored}, and
   * nowhere in the resource itself.
   */
  private static Secret assertSecretsLiveInTheOwnedSecret(
      TestUser user, HasMetadata stored, String generated) {
    assertThat(shared.client().getKubernetesSerialization().asJson(stored))
        .doesNotContain(generated)
        .doesNotContain(GIVEN);
    Secret secret =
        shared
            .client()
            .secrets()
            .inNamespace(user.namespace())
            .withName(stored.getMetadata().getName() + "-webhooks")
            .get();
    assertThat(decode(secret))
        .isEqualTo(
            Map.of(
                WebhookSecrets.keyOf("https://hooks.example/generated"), generated,
                WebhookSecrets.keyOf("https://hooks.example/given"), GIVEN));
    assertThat(secret.getMetadata().getOwnerReferences().getFirst().getUid())
        .isEqualTo(stored.getMetadata().getUid());
    return secret;
  }
}
