package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.history.History;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.retention.RetentionSettings;
import dev.threadline.operator.retention.RunArchiver;
import dev.threadline.operator.run.RunBookkeeping;
import dev.threadline.operator.support.BareOperators;
import dev.threadline.operator.support.LoopbackServer;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.SharedHistory;
import dev.threadline.operator.usage.DirectAnswerLimit;
import dev.threadline.operator.usage.RunUsageRecorder;
import dev.threadline.operator.usage.TenantPlans;
import dev.threadline.operator.usage.UsageLedgers;
import dev.threadline.operator.worker.DeletedRuns;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The three webhook controllers against fabric8's CRUD mock and a loopback receiver that checks
 * every request the way the Standard Webhooks spec tells receivers to (its own HMAC, not the
 * operator's signer). Each test works in its own namespace and on its own receiver path.
 */
@EnableKubernetesMockClient(crud = true)
class WebhookDeliveryMockServerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final RetrySchedule FAST =
      new RetrySchedule(List.of(Duration.ofMillis(50), Duration.ofMillis(50)));
  private static final WebhookSettings SETTINGS =
      new WebhookSettings(AllowedTargets.LOOPBACK, FAST, Duration.ofHours(1));
  private static final String SECRET =
      "whsec_" + Base64.getEncoder().encodeToString(randomBytes(32));

  static KubernetesMockServer server;
  static KubernetesClient client;
  private static LoopbackServer receiver;
  private static final List<Received> received = new CopyOnWriteArrayList<>();
  private static final Map<String, Deque<Integer>> answers = new ConcurrentHashMap<>();
  private static final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private Operator operator;
  private String ns;

  record Received(
      String path,
      String id,
      String timestamp,
      String body,
      Map<String, String> headers,
      boolean verified) {
    JsonNode json() {
      return Serialization.unmarshal(body, JsonNode.class);
    }
  }

  // The finished run's bookkeeping counts usage too: its ledgers and tenants outlive each operator.
  private static UsageLedgers ledgers;
  private static TenantPlans tenants;

  @BeforeAll
  static void startReceiver() {
    OperatorMockServer.registerCrds(server, client);
    receiver = LoopbackServer.start(WebhookDeliveryMockServerTest::receive);
    ledgers = new UsageLedgers(client);
    tenants = new TenantPlans(client, OperatorSettings.defaults().usagePlans());
  }

  @AfterAll
  static void stopReceiver() {
    receiver.close();
    ledgers.close();
    tenants.close();
  }

  @BeforeEach
  void start(TestInfo test) {
    meters.clear();
    ns = test.getTestMethod().orElseThrow().getName().replaceAll("([A-Z])", "-$1").toLowerCase();
    ns = ns.substring(0, Math.min(ns.length(), 50)).replaceAll("-+$", "");
    operator = startOperator(SETTINGS);
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
  }

  @Test
  void aCompletedRunOnAnAgentWithAWebhookIsAnnouncedOnceSignedAndThin() {
    createSecret();
    Agent agent = createAgent("agent-helper", endpoint("completed"));
    Run run =
        finishRun(
            createRun("run-abc-1", "agent-helper", null, null),
            "completed",
            status -> {
              status.setDurationMs(1500L);
              status.setCost(0.02);
              status.setResponse("a long answer that stays out of webhooks");
            });

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.DELIVERED);

    assertThat(requestsTo("completed"))
        .singleElement()
        .satisfies(request -> {
          assertThat(request.verified()).isTrue();
          assertThat(request.id())
              .isEqualTo(delivery.getSpec().getMessageId())
              .matches("msg_[0-9a-f]{32}");
          assertThat(request.headers())
              .containsEntry("content-type", "application/json")
              .containsEntry("user-agent", "Threadline-Webhooks/1");
          assertThat(request.body()).isEqualTo(delivery.getSpec().getPayload());
          assertThat(request.body())
              .isEqualTo(
                  "{\"type\":\"run.completed\",\"timestamp\":\""
                      + run.getStatus().getCompletedAt()
                      + "\",\"data\":{\"threadId\":\"thread_abc\",\"runId\":\"run_abc-1\","
                      + "\"agentId\":\"agent_helper\",\"status\":\"completed\",\"completedAt\":\""
                      + run.getStatus().getCompletedAt()
                      + "\",\"durationMs\":1500,\"totalCost\":0.02}}");
        });
    assertThat(delivery.getMetadata().getName())
        .isEqualTo(WebhookMessage.deliveryName(delivery.getSpec().getMessageId()));
    assertThat(delivery.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(agent.getMetadata().getUid()));
    assertThat(delivery.getStatus().getAttempts()).isEqualTo(1);
    assertThat(delivery.getStatus().getLastStatusCode()).isEqualTo(200);
    assertThat(delivery.getStatus().getFinishedAt()).isNotNull();
    await().atMost(WAIT).until(() -> Boolean.TRUE.equals(run(run).getStatus().getWebhooksQueued()));
    assertThat(deliveries()).hasSize(1);
  }

  @Test
  void aFailedRunIsAnnouncedAsRunFailedOnlyToEndpointsThatWantIt() {
    createSecret();
    createAgent(
        "agent-helper",
        endpoint("only-completed", WebhookEvent.RUN_COMPLETED),
        endpoint("only-failed", WebhookEvent.RUN_FAILED));
    Run run =
        finishRun(
            createRun("run-abc-1", "agent-helper", null, null),
            "failed",
            status -> {
              RunError error = new RunError();
              error.setCode("execution_failed");
              error.setMessage("the model is unavailable");
              status.setError(error);
            });

    awaitDelivery(d -> d.getState() == WebhookDeliveryState.DELIVERED);
    await().atMost(WAIT).until(() -> Boolean.TRUE.equals(run(run).getStatus().getWebhooksQueued()));

    assertThat(requestsTo("only-failed"))
        .singleElement()
        .satisfies(request -> {
          assertThat(request.verified()).isTrue();
          assertThat(request.json().get("type").asText()).isEqualTo("run.failed");
          assertThat(request.json().at("/data/status").asText()).isEqualTo("failed");
          assertThat(request.json().at("/data/errorCode").asText()).isEqualTo("execution_failed");
          assertThat(request.json().at("/data/errorMessage").asText())
              .isEqualTo("the model is unavailable");
        });
    assertThat(requestsTo("only-completed")).isEmpty();
    assertThat(deliveries()).hasSize(1);
  }

  @Test
  void aRunFiredByAScheduleReachesTheSchedulesAndTheEnvironmentsWebhooks() {
    createSecret();
    Schedule schedule = new Schedule();
    schedule.setMetadata(meta("schedule-nightly"));
    schedule.setSpec(new ScheduleSpec());
    schedule.getSpec().setTask("tidy up");
    schedule.getSpec().setScheduleType("cron");
    schedule.getSpec().setWebhooks(List.of(endpoint("schedule")));
    client.resource(schedule).create();
    createEnvironment(
        "env-web",
        endpoint("environment-runs", WebhookEvent.RUN_COMPLETED),
        endpoint("environment-builds", WebhookEvent.BUILD_READY));
    finishRun(
        createRun("run-abc-1", null, "env-web", "schedule-nightly"), "completed", status -> {});

    await()
        .atMost(WAIT)
        .until(() ->
            deliveries().size() == 2
                && deliveries().stream()
                    .allMatch(d ->
                        d.getStatus() != null
                            && d.getStatus().getState() == WebhookDeliveryState.DELIVERED));

    assertThat(requestsTo("schedule"))
        .singleElement()
        .satisfies(request -> {
          assertThat(request.verified()).isTrue();
          assertThat(request.json().get("type").asText()).isEqualTo("run.completed");
          assertThat(request.json().at("/data/scheduleId").asText()).isEqualTo("schedule_nightly");
          assertThat(request.json().at("/data/environmentId").asText()).isEqualTo("env_web");
          assertThat(request.json().at("/data/agentId").isMissingNode()).isTrue();
        });
    assertThat(requestsTo("environment-runs")).hasSize(1);
    assertThat(requestsTo("environment-builds")).isEmpty();
    assertThat(requestsTo("environment-runs").getFirst().id())
        .isNotEqualTo(requestsTo("schedule").getFirst().id());
  }

  @Test
  void aRunNamingNoEnvironmentReachesTheUsersDefaultEnvironmentsWebhooks() {
    createSecret();
    createEnvironment("env-other", endpoint("other-environment"));
    Environment main = createEnvironment("env-main", endpoint("default-environment"));
    main.getSpec().setIsDefault(true);
    client.resource(main).update();
    Run run = finishRun(createRun("run-abc-1", null, null, null), "completed", status -> {});

    await().atMost(WAIT).until(() -> requestsTo("default-environment").size() == 1);
    assertThat(
            requestsTo("default-environment").getFirst().json().at("/data/environmentId").asText())
        .isEqualTo("env_main");
    await().atMost(WAIT).until(() -> Boolean.TRUE.equals(run(run).getStatus().getWebhooksQueued()));
    assertThat(requestsTo("other-environment")).isEmpty();
  }

  @Test
  void environmentBuildsAnnounceBuildReadyAndBuildFailedOncePerBuild() {
    createSecret();
    Environment environment = createEnvironment("env-web", endpoint("builds"));
    Instant readyAt = Instant.now().minusSeconds(5);
    setBuildStatus(
        environment,
        status -> {
          status.setBuildStatus(BuildStatus.READY);
          status.setBuildHash("0123456789abcdef");
          status.setImageTag("registry.example.com/tl/env-web:0123456789abcdef");
          status.setLastBuildAt(Timestamps.format(readyAt));
        });
    await().atMost(WAIT).until(() -> requestsTo("builds").size() == 1);
    String firstBuild = "0123456789abcdef@" + Timestamps.format(readyAt);
    await()
        .atMost(WAIT)
        .until(
            () -> firstBuild.equals(environment(environment).getStatus().getWebhooksQueuedFor()));

    setBuildStatus(
        environment,
        status -> {
          status.setBuildStatus(BuildStatus.FAILED);
          status.setBuildHash("fedcba9876543210");
          status.setBuildError("Package not found: nosuchpkg");
          status.setLastBuildAt(Timestamps.format(readyAt.plusSeconds(3)));
        });
    await().atMost(WAIT).until(() -> requestsTo("builds").size() == 2);

    List<Received> builds = requestsTo("builds");
    assertThat(builds).allMatch(Received::verified);
    assertThat(builds.get(0).body())
        .isEqualTo(
            "{\"type\":\"build.ready\",\"timestamp\":\""
                + Timestamps.format(readyAt)
                + "\",\"data\":{\"environmentId\":\"env_web\",\"buildStatus\":\"ready\",\"buildHash\":\"0123456789abcdef\","
                + "\"imageTag\":\"registry.example.com/tl/env-web:0123456789abcdef\",\"lastBuildAt\":\""
                + Timestamps.format(readyAt)
                + "\"}}");
    assertThat(builds.get(1).json().get("type").asText()).isEqualTo("build.failed");
    assertThat(builds.get(1).json().at("/data/buildError").asText())
        .isEqualTo("Package not found: nosuchpkg");
    assertThat(builds.get(1).json().at("/data/imageTag").isMissingNode()).isTrue();
    await()
        .atMost(WAIT)
        .until(() ->
            deliveries().stream()
                .allMatch(d ->
                    d.getStatus() != null
                        && d.getStatus().getState() == WebhookDeliveryState.DELIVERED));
    assertThat(deliveries()).hasSize(2);
  }

  @Test
  void aReceiverThatFailsTwiceGetsTheSameMessageThreeTimes() {
    createSecret();
    createAgent("agent-helper", endpoint("flaky"));
    answer("flaky", 500, 500, 200);
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.DELIVERED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(3);
    assertThat(delivery.getStatus().getLastStatusCode()).isEqualTo(200);
    assertThat(delivery.getStatus().getLastError()).isNull();
    assertThat(attempts("pending")).isEqualTo(2);
    assertThat(attempts("delivered")).isEqualTo(1);
    assertThat(requestsTo("flaky"))
        .hasSize(3)
        .allSatisfy(request -> {
          assertThat(request.verified()).isTrue();
          assertThat(request.id()).isEqualTo(delivery.getSpec().getMessageId());
          assertThat(request.body()).isEqualTo(delivery.getSpec().getPayload());
        });
  }

  @Test
  void aReceiverThatNeverRecoversIsGivenUpOnAfterTheLastRetry() {
    createSecret();
    createAgent("agent-helper", endpoint("down"));
    answer("down", 503, 503, 503, 503, 503);
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.FAILED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(FAST.maxAttempts());
    assertThat(delivery.getStatus().getLastStatusCode()).isEqualTo(503);
    assertThat(delivery.getStatus().getLastError()).contains("HTTP 503");
    assertThat(delivery.getStatus().getNextAttemptAt()).isNull();
    assertThat(delivery.getStatus().getFinishedAt()).isNotNull();
    assertThat(requestsTo("down")).hasSize(FAST.maxAttempts());
    assertThat(attempts("failed")).isEqualTo(1);
    assertThat(attempts("pending")).isEqualTo(FAST.maxAttempts() - 1);
  }

  @Test
  void aPrivateTargetIsRefusedAtOnceWhenPrivateTargetsAreOff() {
    operator.stop();
    operator = startOperator(SETTINGS.withAllowedTargets(AllowedTargets.PUBLIC));
    createSecret();
    createAgent("agent-helper", endpoint("private"));
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.FAILED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(1);
    assertThat(delivery.getStatus().getLastError())
        .contains("127.0.0.1 is a loopback address")
        .contains("THREADLINE_WEBHOOK_ALLOWED_TARGETS=loopback");
    assertThat(delivery.getStatus().getLastStatusCode()).isNull();
    assertThat(requestsTo("private")).isEmpty();
  }

  @Test
  void aUrlWrittenWithKubectlIsReadAsRegistrationReadsIt() {
    // 0177.0.0.1 is 127.0.0.1 to curl and 177.0.0.1 to Java: refused, never guessed at.
    String ambiguous = receiver.url("/" + ns + "/ambiguous").replace("127.0.0.1", "0177.0.0.1");
    createSecret();
    createAgent(
        "agent-helper",
        new WebhookEndpoint(ambiguous, List.of(), new SecretKeyReference("hooks", "secret")));
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.FAILED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(1);
    assertThat(delivery.getStatus().getLastError())
        .startsWith("spec.url must write an IPv4 address as four decimal numbers");
    assertThat(requestsTo("ambiguous")).isEmpty();
  }

  @Test
  void aMissingSecretIsRetriedAndThenFailedSayingWhichSecret() {
    createAgent("agent-helper", endpoint("no-secret"));
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.FAILED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(FAST.maxAttempts());
    assertThat(delivery.getStatus().getLastError())
        .isEqualTo("Secret " + ns + "/hooks (spec.secretRef) not found");
    assertThat(requestsTo("no-secret")).isEmpty();
  }

  @Test
  void aDeliveredRecordIsDeletedAfterItsRetention() {
    operator.stop();
    operator = startOperator(SETTINGS.withRetention(Duration.ofMillis(300)));
    createSecret();
    createAgent("agent-helper", endpoint("kept-briefly"));
    finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    await().atMost(WAIT).until(() -> requestsTo("kept-briefly").size() == 1);
    await().atMost(WAIT).until(() -> deliveries().isEmpty());
    assertThat(requestsTo("kept-briefly")).hasSize(1);
  }

  @Test
  void aRestartedOperatorResumesThePendingDeliveryWithTheSameIdAndQueuesNothingTwice() {
    WebhookSettings slowRetry =
        SETTINGS.withRetries(new RetrySchedule(List.of(Duration.ofSeconds(2))));
    operator.stop();
    operator = startOperator(slowRetry);
    createSecret();
    createAgent("agent-helper", endpoint("restart"));
    answer("restart", 500, 200);
    Run run =
        finishRun(createRun("run-abc-1", "agent-helper", null, null), "completed", status -> {});

    awaitDelivery(d -> d.getState() == WebhookDeliveryState.PENDING && d.getAttempts() == 1);
    operator.stop();
    assertThat(requestsTo("restart")).hasSize(1);
    assertThat(run(run).getStatus().getWebhooksQueued()).isTrue();

    operator = startOperator(slowRetry);
    WebhookDelivery delivery = awaitDelivery(d -> d.getState() == WebhookDeliveryState.DELIVERED);

    assertThat(delivery.getStatus().getAttempts()).isEqualTo(2);
    assertThat(requestsTo("restart"))
        .hasSize(2)
        .extracting(Received::id)
        .containsOnly(delivery.getSpec().getMessageId());
    // the Run changes again after the restart: still queued once
    Run changed = run(run);
    changed.getStatus().setDurationMs(42L);
    client.resource(changed).updateStatus();
    await()
        .atMost(WAIT)
        .until(() -> Long.valueOf(42L).equals(run(run).getStatus().getDurationMs()));
    assertThat(deliveries()).hasSize(1);
    assertThat(requestsTo("restart")).hasSize(2);
  }

  @Test
  void aRunThatEndedMoreThanADayAgoIsOnlyMarked() {
    createSecret();
    createAgent("agent-helper", endpoint("old"));
    Run run =
        finishRun(
            createRun("run-abc-1", "agent-helper", null, null),
            "completed",
            status ->
                status.setCompletedAt(Timestamps.format(Instant.now().minus(Duration.ofDays(2)))));

    // Marked, then (it ended two days ago, past its retention) archived and gone from the API.
    await()
        .atMost(WAIT)
        .until(() -> {
          Run current = run(run);
          return current == null || Boolean.TRUE.equals(current.getStatus().getWebhooksQueued());
        });
    assertThat(deliveries()).isEmpty();
    assertThat(requestsTo("old")).isEmpty();
  }

  // --- the operator, the receiver and the resources
  // -------------------------------------------------

  private static Operator startOperator(WebhookSettings settings) {
    Operator operator = BareOperators.on(client);
    Clock clock = Clock.systemUTC();
    OperatorSettings defaults = OperatorSettings.defaults();
    RunUsageRecorder usage =
        new RunUsageRecorder(
            client,
            ledgers,
            tenants,
            clock,
            new OperatorMetrics(meters),
            new DeletedRuns(
                client,
                ModelPricing.none(),
                defaults.agentPod().cancelGracePeriod(),
                clock,
                SharedHistory.statuses()),
            DirectAnswerLimit.of(defaults.model()));
    RunBookkeeping bookkeeping =
        new RunBookkeeping(
            client,
            usage,
            new RunArchiver(client, History.temporary(), RetentionSettings.defaults(), clock),
            clock);
    operator.register(
        bookkeeping, o -> o.watchingAllNamespaces().withOnUpdateFilter(bookkeeping.eventFilter()));
    operator.register(
        new BuildWebhooks(client, clock), ControllerConfigurationOverrider::watchingAllNamespaces);
    operator.register(
        new WebhookDeliveryReconciler(client, settings, clock, new OperatorMetrics(meters)),
        ControllerConfigurationOverrider::watchingAllNamespaces);
    operator.start();
    return operator;
  }

  /** Attempts counted by {@code threadline_webhook_deliveries} with this outcome. */
  private static double attempts(String outcome) {
    Counter counter =
        meters.find("threadline_webhook_deliveries").tag("outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  private static void receive(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath().substring(1);
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String id = exchange.getRequestHeaders().getFirst("webhook-id");
    String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
    String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
    Map<String, String> headers = new ConcurrentHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> headers.put(name.toLowerCase(), values.getFirst()));
    received.add(
        new Received(path, id, timestamp, body, headers, verify(id, timestamp, signatures, body)));
    Deque<Integer> script = answers.get(path);
    Integer status = script == null ? null : script.pollFirst();
    exchange.sendResponseHeaders(status == null ? 200 : status, -1);
  }

  /**
   * The receiver's side of the spec: a fresh timestamp, and one v1 signature that matches, compared
   * in constant time.
   */
  private static boolean verify(String id, String timestamp, String signatures, String body) {
    try {
      if (Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp)) > 300) {
        return false;
      }
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(
          new SecretKeySpec(
              Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
      byte[] expected =
          mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      for (String signature : signatures.split(" ")) {
        String[] parts = signature.split(",", 2);
        if (parts[0].equals("v1")
            && MessageDigest.isEqual(expected, Base64.getDecoder().decode(parts[1]))) {
          return true;
        }
      }
      return false;
    } catch (Exception malformed) {
      return false;
    }
  }

  private void answer(String path, Integer... statuses) {
    answers.put(ns + "/" + path, new ConcurrentLinkedDeque<>(List.of(statuses)));
  }

  private List<Received> requestsTo(String path) {
    return received.stream().filter(request -> request.path().equals(ns + "/" + path)).toList();
  }

  private WebhookEndpoint endpoint(String path, WebhookEvent... events) {
    return new WebhookEndpoint(
        receiver.url("/" + ns + "/" + path),
        List.of(events),
        new SecretKeyReference("hooks", "secret"));
  }

  private void createSecret() {
    client
        .resource(
            new SecretBuilder()
                .withMetadata(meta("hooks"))
                .addToData(
                    "secret",
                    Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)))
                .build())
        .create();
  }

  private Agent createAgent(String name, WebhookEndpoint... endpoints) {
    Agent agent = new Agent();
    agent.setMetadata(meta(name));
    agent.setSpec(new AgentSpec());
    agent.getSpec().setModel("scripted-1");
    agent.getSpec().setWebhooks(List.of(endpoints));
    return client.resource(agent).create();
  }

  private Environment createEnvironment(String name, WebhookEndpoint... endpoints) {
    Environment environment = new Environment();
    environment.setMetadata(meta(name));
    environment.setSpec(new EnvironmentSpec());
    environment.getSpec().setBuildPolicy(BuildPolicy.MANUAL); // the test plays its builds
    environment.getSpec().setWebhooks(List.of(endpoints));
    return client.resource(environment).create();
  }

  private void setBuildStatus(Environment environment, Consumer<EnvironmentStatus> change) {
    Environment current = environment(environment);
    EnvironmentStatus status =
        current.getStatus() == null ? new EnvironmentStatus() : current.getStatus();
    change.accept(status);
    current.setStatus(status);
    client.resource(current).updateStatus();
  }

  private Run createRun(String name, String agent, String environment, String schedule) {
    Run run = new Run();
    run.setMetadata(meta(name));
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    spec.setSequence(1L);
    spec.setMessage("Hello");
    spec.setAgent(agent);
    spec.setEnvironment(environment);
    spec.setSchedule(schedule);
    spec.setSource(schedule == null ? "api" : "schedule");
    run.setSpec(spec);
    return client.resource(run).create();
  }

  /**
   * Ends a run as the run controller would: phase, completedAt (now unless the change sets it) and
   * more.
   */
  private Run finishRun(Run run, String phase, Consumer<RunStatus> change) {
    RunStatus status = new RunStatus();
    status.setPhase(phase);
    status.setCompletedAt(Timestamps.now());
    change.accept(status);
    Run current = run(run);
    current.setStatus(status);
    return client.resource(current).updateStatus();
  }

  private Run run(Run run) {
    return client.resources(Run.class).inNamespace(ns).withName(run.getMetadata().getName()).get();
  }

  private Environment environment(Environment environment) {
    return client
        .resources(Environment.class)
        .inNamespace(ns)
        .withName(environment.getMetadata().getName())
        .get();
  }

  private List<WebhookDelivery> deliveries() {
    return client.resources(WebhookDelivery.class).inNamespace(ns).list().getItems();
  }

  /** The one delivery of the namespace, once its status satisfies {@code condition}. */
  private WebhookDelivery awaitDelivery(
      java.util.function.Predicate<WebhookDeliveryStatus> condition) {
    return await()
        .atMost(WAIT)
        .until(
            () -> {
              List<WebhookDelivery> all = deliveries();
              return all.size() == 1 ? all.getFirst() : null;
            },
            delivery ->
                delivery != null
                    && delivery.getStatus() != null
                    && delivery.getStatus().getState() != null
                    && condition.test(delivery.getStatus()));
  }

  private io.fabric8.kubernetes.api.model.ObjectMeta meta(String name) {
    return new ObjectMetaBuilder().withNamespace(ns).withName(name).build();
  }

  private static byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }
}
