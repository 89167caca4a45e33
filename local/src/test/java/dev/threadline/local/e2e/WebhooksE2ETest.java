package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static dev.threadline.local.e2e.LocalModeFixture.BOB_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.local.e2e.WebhookReceiver.Received;
import dev.threadline.operator.webhooks.RetrySchedule;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks end to end in local mode: configured over REST and with kubectl-style manifests, fired
 * by a finished run and a finished build, signed as Standard Webhooks says (checked here with the
 * algorithm written out, not with the service's signer), retried after a 500, recorded per user.
 */
class WebhooksE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String SECRET =
      "whsec_"
          + Base64.getEncoder()
              .encodeToString("a-receivers-own-32-byte-key-0001".getBytes(StandardCharsets.UTF_8));

  private static LocalModeFixture fixture;
  private static WebhookReceiver receiver;

  @BeforeAll
  static void start() {
    receiver = WebhookReceiver.start();
    fixture =
        LocalModeFixture.start(settings ->
            settings.withWebhooks(
                settings
                    .webhooks()
                    .withRetries(
                        new RetrySchedule(
                            List.of(Duration.ofMillis(200), Duration.ofMillis(200))))));
  }

  @AfterAll
  static void stop() {
    fixture.close();
    receiver.close();
  }

  @Test
  void aFinishedRunIsAnnouncedSignedAndRetriedAfterA500() throws Exception {
    receiver.answer("/runs", 500);
    var agent =
        fixture.post(
            ALICE_KEY,
            "/v1/agents",
            """
            {"name": "notifier", "model": "scripted-1",
             "webhooks": [{"url": "%s", "events": ["run.completed", "run.failed"], "secret": "%s"}]}\
            """
                .formatted(receiver.url("/runs"), SECRET));
    assertThat(agent.statusCode()).as(agent.body()).isEqualTo(201);
    assertThat(agent.body()).as("a secret the client gave is never echoed").doesNotContain(SECRET);
    String agentId =
        json(agent.body()).at("/agent/id").asText(json(agent.body()).path("id").asText());

    var thread =
        fixture.post(
            ALICE_KEY,
            "/v1/threads",
            "{\"task\": \"Hello!\", \"agentId\": \"" + agentId + "\", \"stream\": false}");
    assertThat(thread.statusCode()).as(thread.body()).isEqualTo(201);
    String threadId = json(thread.body()).at("/thread/id").asText();

    List<Received> attempts =
        await().atMost(WAIT).until(() -> receiver.receivedAt("/runs"), list -> list.size() >= 2);
    assertThat(attempts)
        .extracting(Received::id)
        .as("one message id on every attempt")
        .containsOnly(attempts.get(0).id());
    Received delivered = attempts.get(1);
    assertThat(delivered.signature()).isEqualTo(expectedSignature(SECRET, delivered));
    assertThat(Math.abs(Instant.now().getEpochSecond() - Long.parseLong(delivered.timestamp())))
        .isLessThan(300);
    JsonNode body = json(delivered.body());
    assertThat(body.path("type").asText()).isEqualTo("run.completed");
    assertThat(body.at("/data/threadId").asText()).isEqualTo(threadId);
    assertThat(body.at("/data/agentId").asText()).isEqualTo(agentId);
    assertThat(body.at("/data/status").asText()).isEqualTo("completed");

    JsonNode record =
        await()
            .atMost(WAIT)
            .until(
                () -> delivery(ALICE_KEY, delivered.id()),
                found -> found != null && "delivered".equals(found.path("state").asText()));
    assertThat(record.path("attempts").asInt()).isEqualTo(2);
    assertThat(record.path("lastStatusCode").asInt()).isEqualTo(204);
    assertThat(record.toString()).doesNotContain(SECRET);

    assertThat(fixture.get(BOB_KEY, "/v1/webhooks/deliveries/" + delivered.id()).statusCode())
        .isEqualTo(404);
    assertThat(json(fixture.get(BOB_KEY, "/v1/webhooks/deliveries").body()).path("data")).isEmpty();
  }

  @Test
  void aBuildIsAnnouncedWithTheSecretTheServiceGenerated() throws Exception {
    var created =
        fixture.post(
            ALICE_KEY,
            "/environments",
            """
            {"name": "hooked", "webhooks": [{"url": "%s", "events": ["build.ready", "build.failed"]}]}\
            """
                .formatted(receiver.url("/builds")));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String generated = created.body().replaceAll("(?s).*\"secret\":\"(whsec_[^\"]+)\".*", "$1");
    assertThat(generated).as("the generated secret, shown once").startsWith("whsec_");
    String environmentId = created.body().replaceAll("(?s).*?\"id\":\"(env_[^\"]+)\".*", "$1");
    assertThat(fixture.get(ALICE_KEY, "/environments/" + environmentId).body())
        .doesNotContain(generated);

    assertThat(
            fixture.post(ALICE_KEY, "/environments/" + environmentId + "/build", "").statusCode())
        .isEqualTo(202);

    Received announced =
        await()
            .atMost(WAIT)
            .until(() -> receiver.receivedAt("/builds"), list -> !list.isEmpty())
            .get(0);
    assertThat(announced.signature()).isEqualTo(expectedSignature(generated, announced));
    JsonNode body = json(announced.body());
    assertThat(body.path("type").asText()).isEqualTo("build.ready");
    assertThat(body.at("/data/environmentId").asText()).isEqualTo(environmentId);
    assertThat(body.at("/data/imageTag").asText()).startsWith("env-hooked:");
  }

  @Test
  void aWebhookDeclaredInAManifestReferencesTheUsersOwnSecret() throws Exception {
    var client = fixture.local().client();
    client
        .resource(
            new SecretBuilder()
                .withMetadata(
                    new ObjectMetaBuilder().withName("ci-signing").withNamespace("alice").build())
                .addToStringData("secret", SECRET)
                .build())
        .create();
    Agent agent = new Agent();
    agent.setMetadata(
        new ObjectMetaBuilder().withName("agent-gitops").withNamespace("alice").build());
    AgentSpec spec = new AgentSpec();
    spec.setModel("scripted-1");
    spec.setWebhooks(
        List.of(
            new WebhookEndpoint(
                receiver.url("/gitops"),
                List.of(WebhookEvent.RUN_COMPLETED),
                new SecretKeyReference("ci-signing", "secret"))));
    agent.setSpec(spec);
    client.resource(agent).create();

    var thread =
        fixture.post(
            ALICE_KEY,
            "/v1/threads",
            "{\"task\": \"Hello!\", \"agentId\": \"agent_gitops\", \"stream\": false}");
    assertThat(thread.statusCode()).as(thread.body()).isEqualTo(201);

    Received announced =
        await()
            .atMost(WAIT)
            .until(() -> receiver.receivedAt("/gitops"), list -> !list.isEmpty())
            .get(0);
    assertThat(announced.signature()).isEqualTo(expectedSignature(SECRET, announced));
    assertThat(json(announced.body()).path("type").asText()).isEqualTo("run.completed");
  }

  @Test
  void byDefaultOnlyLoopbackReceiversArePrivateTargetsAllowed() throws Exception {
    for (String url : List.of("http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data/")) {
      var refused =
          fixture.post(
              ALICE_KEY,
              "/v1/agents",
              """
              {"name": "prober", "model": "scripted-1", "webhooks": [{"url": "%s"}]}\
              """
                  .formatted(url));
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(json(refused.body()).path("message").asText())
          .startsWith("webhooks[0].url must not point at ");
    }

    // Written with kubectl, past the API's check: the operator refuses them at delivery, at once,
    // and never dials them.
    var client = fixture.local().client();
    client
        .resource(
            new SecretBuilder()
                .withMetadata(
                    new ObjectMetaBuilder().withName("probe-signing").withNamespace("bob").build())
                .addToStringData("secret", SECRET)
                .build())
        .create();
    Agent agent = new Agent();
    agent.setMetadata(
        new ObjectMetaBuilder().withName("agent-prober").withNamespace("bob").build());
    AgentSpec spec = new AgentSpec();
    spec.setModel("scripted-1");
    spec.setWebhooks(
        List.of(
            new WebhookEndpoint(
                "http://10.0.0.1/hook",
                List.of(),
                new SecretKeyReference("probe-signing", "secret")),
            new WebhookEndpoint(
                "http://169.254.169.254/latest/meta-data/",
                List.of(),
                new SecretKeyReference("probe-signing", "secret"))));
    agent.setSpec(spec);
    client.resource(agent).create();

    var thread =
        fixture.post(
            BOB_KEY,
            "/v1/threads",
            "{\"task\": \"Hello!\", \"agentId\": \"agent_prober\", \"stream\": false}");
    assertThat(thread.statusCode()).as(thread.body()).isEqualTo(201);

    JsonNode records =
        await()
            .atMost(WAIT)
            .until(
                () -> json(fixture.get(BOB_KEY, "/v1/webhooks/deliveries").body()).path("data"),
                data ->
                    data.size() == 2
                        && data.findValuesAsText("state").stream()
                            .allMatch(state -> state.equals("failed")));
    for (JsonNode record : records) {
      assertThat(record.path("attempts").asInt()).as(record.toString()).isEqualTo(1);
      assertThat(record.path("lastError").asText())
          .as(record.toString())
          .containsAnyOf(
              "10.0.0.1 is a private-network address; allowed only with"
                  + " THREADLINE_WEBHOOK_ALLOWED_TARGETS=private",
              "169.254.169.254 is a link-local address (where cloud metadata endpoints are),"
                  + " never called");
    }
  }

  private static JsonNode delivery(String key, String id) throws Exception {
    var response = fixture.get(key, "/v1/webhooks/deliveries/" + id);
    return response.statusCode() == 200 ? json(response.body()).path("delivery") : null;
  }

  /** Standard Webhooks: v1,base64(HMAC-SHA256(base64-decoded key, "id.timestamp.body")). */
  private static String expectedSignature(String secret, Received received) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(
        new SecretKeySpec(
            Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
    byte[] digest =
        mac.doFinal(
            (received.id() + "." + received.timestamp() + "." + received.body())
                .getBytes(StandardCharsets.UTF_8));
    return "v1," + Base64.getEncoder().encodeToString(digest);
  }

  private static JsonNode json(String body) throws Exception {
    return JSON.readTree(body);
  }
}
