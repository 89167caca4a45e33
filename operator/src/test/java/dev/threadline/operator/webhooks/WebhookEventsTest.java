package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleSpec;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which endpoints get which event, with which body and id: pure decisions. */
class WebhookEventsTest {
  private static final SecretKeyReference SECRET = new SecretKeyReference("hooks", "secret");
  private static final Instant ENDED = Instant.parse("2026-11-01T10:00:00.250Z");

  @Test
  void eachFinishedPhaseHasItsEventAndUnfinishedOnesNone() {
    assertThat(WebhookEvents.ofRun(RunPhase.COMPLETED)).contains(WebhookEvent.RUN_COMPLETED);
    assertThat(WebhookEvents.ofRun(RunPhase.FAILED)).contains(WebhookEvent.RUN_FAILED);
    assertThat(WebhookEvents.ofRun(RunPhase.CANCELLED)).contains(WebhookEvent.RUN_CANCELLED);
    assertThat(WebhookEvents.ofRun(RunPhase.RUNNING)).isEmpty();
    assertThat(WebhookEvents.ofRun(RunPhase.PENDING)).isEmpty();
  }

  @Test
  void aRunEventGoesToItsAgentEnvironmentAndScheduleThatWantIt() {
    Agent agent =
        agent(
            endpoint("https://a.example/all"),
            endpoint("https://a.example/failed", WebhookEvent.RUN_FAILED));
    Environment environment =
        environment(
            endpoint("https://e.example/builds", WebhookEvent.BUILD_READY),
            endpoint(
                "https://e.example/runs", WebhookEvent.RUN_COMPLETED, WebhookEvent.RUN_FAILED));
    Schedule schedule = schedule(endpoint("https://s.example/"));

    List<WebhookRecipient> completed =
        WebhookEvents.runRecipients(WebhookEvent.RUN_COMPLETED, agent, environment, schedule);
    assertThat(completed)
        .extracting(r -> r.configuredOn().getKind() + " " + r.endpoint().getUrl())
        .containsExactly(
            "Agent https://a.example/all",
            "Environment https://e.example/runs",
            "Schedule https://s.example/");

    List<WebhookRecipient> cancelled =
        WebhookEvents.runRecipients(WebhookEvent.RUN_CANCELLED, agent, environment, null);
    assertThat(cancelled)
        .extracting(r -> r.endpoint().getUrl())
        .containsExactly("https://a.example/all");
  }

  @Test
  void aRunWithoutAgentEnvironmentOrScheduleResourcesAnnouncesNothing() {
    assertThat(WebhookEvents.runRecipients(WebhookEvent.RUN_COMPLETED, null, null, null)).isEmpty();
  }

  @Test
  void buildEventsGoOnlyToTheEnvironmentsEndpointsThatWantThem() {
    Environment environment =
        environment(
            endpoint("https://e.example/ready", WebhookEvent.BUILD_READY),
            endpoint("https://e.example/runs", WebhookEvent.RUN_COMPLETED),
            endpoint("https://e.example/all"));
    assertThat(WebhookEvents.buildRecipients(WebhookEvent.BUILD_READY, environment))
        .extracting(r -> r.endpoint().getUrl())
        .containsExactly("https://e.example/ready", "https://e.example/all");
    assertThat(WebhookEvents.buildRecipients(WebhookEvent.BUILD_FAILED, environment))
        .extracting(r -> r.endpoint().getUrl())
        .containsExactly("https://e.example/all");
  }

  @Test
  void aBuildIsAnnouncedOnceItEndedReadyOrFailed() {
    EnvironmentStatus status = new EnvironmentStatus();
    status.setBuildStatus(BuildStatus.READY);
    assertThat(WebhookEvents.ofBuild(status)).isEmpty(); // never built: no lastBuildAt
    status.setLastBuildAt("2026-11-01T10:00:00.000Z");
    status.setBuildHash("abc123");
    assertThat(WebhookEvents.ofBuild(status)).contains(WebhookEvent.BUILD_READY);
    assertThat(WebhookEvents.buildOccurrence(status)).isEqualTo("abc123@2026-11-01T10:00:00.000Z");
    status.setBuildStatus(BuildStatus.FAILED);
    assertThat(WebhookEvents.ofBuild(status)).contains(WebhookEvent.BUILD_FAILED);
    status.setBuildStatus(BuildStatus.BUILDING);
    assertThat(WebhookEvents.ofBuild(status)).isEmpty();
  }

  @Test
  void eventsOlderThanADayAreNotAnnounced() {
    Instant now = ENDED.plus(Duration.ofHours(24));
    assertThat(WebhookEvents.isTooOld(Optional.of(ENDED), now)).isFalse();
    assertThat(WebhookEvents.isTooOld(Optional.of(ENDED), now.plusSeconds(1))).isTrue();
    assertThat(WebhookEvents.isTooOld(Optional.empty(), now)).isFalse();
  }

  @Test
  void runDataCarriesRestIdsAndTheOutcomeOnly() {
    Run run = run("completed");
    run.getStatus().setDurationMs(1234L);
    run.getStatus().setCost(0.0125);
    run.getStatus().setResponse("the whole answer, which stays out of the webhook");

    String json =
        Serialization.asJson(WebhookEvents.runData(run, run.getSpec().getEnvironment(), ENDED));

    assertThat(json)
        .isEqualTo(
            "{\"threadId\":\"thread_abc\",\"runId\":\"run_abc-2\",\"agentId\":\"agent_helper\","
                + "\"environmentId\":\"env_web\",\"scheduleId\":\"schedule_nightly\",\"status\":\"completed\","
                + "\"completedAt\":\"2026-11-01T10:00:00.250Z\",\"durationMs\":1234,\"totalCost\":0.0125}");
  }

  @Test
  void failedRunDataCarriesTheErrorAndLeavesOutWhatIsAbsent() {
    Run run = run("failed");
    run.getSpec().setAgent(null);
    run.getSpec().setEnvironment(null);
    run.getSpec().setSchedule(null);
    RunError error = new RunError();
    error.setCode("execution_failed");
    error.setMessage("x".repeat(5000));
    run.getStatus().setError(error);

    var data = WebhookEvents.runData(run, run.getSpec().getEnvironment(), ENDED);

    assertThat(data)
        .containsOnlyKeys(
            "threadId", "runId", "status", "errorCode", "errorMessage", "completedAt");
    assertThat(data.get("errorCode")).isEqualTo("execution_failed");
    assertThat((String) data.get("errorMessage"))
        .hasSize(WebhookEvents.MAX_ERROR_LENGTH)
        .endsWith("…");
  }

  @Test
  void buildDataOfAReadyAndAFailedBuild() {
    Environment environment = environment();
    EnvironmentStatus status = new EnvironmentStatus();
    status.setBuildStatus(BuildStatus.READY);
    status.setBuildHash("0123456789abcdef");
    status.setImageTag("registry.example.com/tl/env-web:0123456789abcdef");
    status.setLastBuildAt("2026-11-01T10:00:00Z");
    environment.setStatus(status);
    assertThat(Serialization.asJson(WebhookEvents.buildData(environment)))
        .isEqualTo(
            "{\"environmentId\":\"env_web\","
                + "\"buildStatus\":\"ready\",\"buildHash\":\"0123456789abcdef\","
                + "\"imageTag\":\"registry.example.com/tl/env-web:0123456789abcdef\",\"lastBuildAt\":\"2026-11-01T10:00:00Z\"}");

    status.setBuildStatus(BuildStatus.FAILED);
    status.setBuildError("Package not found: nosuchpkg");
    assertThat(Serialization.asJson(WebhookEvents.buildData(environment)))
        .isEqualTo(
            "{\"environmentId\":\"env_web\","
                + "\"buildStatus\":\"failed\",\"buildHash\":\"0123456789abcdef\",\"buildError\":\"Package"
                + " not found: nosuchpkg\",\"lastBuildAt\":\"2026-11-01T10:00:00Z\"}");
  }

  @Test
  void plannedDeliveriesAreNamedAfterTheirIdOwnedByWhereTheyAreConfiguredAndCarryTheBody() {
    Run run = run("completed");
    Agent agent = agent(endpoint("https://same.example/hook"));
    Schedule schedule = schedule(endpoint("https://same.example/hook"));
    List<WebhookRecipient> recipients =
        WebhookEvents.runRecipients(WebhookEvent.RUN_COMPLETED, agent, null, schedule);

    List<WebhookDelivery> first =
        WebhookDeliveries.plan(
            run,
            WebhookEvent.RUN_COMPLETED,
            "uid-1",
            ENDED,
            WebhookEvents.runData(run, run.getSpec().getEnvironment(), ENDED),
            recipients);
    List<WebhookDelivery> again =
        WebhookDeliveries.plan(
            run,
            WebhookEvent.RUN_COMPLETED,
            "uid-1",
            ENDED,
            WebhookEvents.runData(run, run.getSpec().getEnvironment(), ENDED),
            recipients);

    assertThat(first).hasSize(2);
    assertThat(first)
        .extracting(d -> d.getMetadata().getName())
        .containsExactlyElementsOf(again.stream().map(d -> d.getMetadata().getName()).toList())
        .doesNotHaveDuplicates()
        .allMatch(name -> name.matches("wh-[0-9a-f]{32}"));
    WebhookDelivery delivery = first.getFirst();
    assertThat(delivery.getMetadata().getName())
        .isEqualTo(WebhookMessage.deliveryName(delivery.getSpec().getMessageId()));
    assertThat(delivery.getMetadata().getNamespace()).isEqualTo("alice");
    assertThat(delivery.getMetadata().getLabels())
        .containsEntry("threadline.dev/thread", "thread-abc");
    assertThat(delivery.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Agent");
          assertThat(owner.getName()).isEqualTo("agent-helper");
          assertThat(owner.getUid()).isEqualTo("uid-Agent");
          assertThat(owner.getApiVersion()).isEqualTo("threadline.dev/v1alpha1");
        });
    assertThat(delivery.getSpec().getSubject().getKind()).isEqualTo("Run");
    assertThat(delivery.getSpec().getSubject().getName()).isEqualTo("run-abc-2");
    assertThat(delivery.getSpec().getConfiguredOn().getKind()).isEqualTo("Agent");
    assertThat(delivery.getSpec().getSecretRef().getName()).isEqualTo("hooks");
    assertThat(delivery.getSpec().getPayload())
        .startsWith(
            "{\"type\":\"run.completed\",\"timestamp\":\"2026-11-01T10:00:00.250Z\",\"data\":{\"threadId\":\"thread_abc\"");
    assertThat(first.get(1).getSpec().getConfiguredOn().getKind()).isEqualTo("Schedule");
  }

  @Test
  void theMessageIdDependsOnWhatMakesTheDeliveryOneDelivery() {
    var run = new dev.threadline.crds.webhook.WebhookSubject("Run", "run-abc-1");
    var agent = new dev.threadline.crds.webhook.WebhookSubject("Agent", "agent-a");
    var schedule = new dev.threadline.crds.webhook.WebhookSubject("Schedule", "schedule-a");
    String id =
        WebhookMessage.messageId("alice", run, WebhookEvent.RUN_COMPLETED, "u1", agent, "http://x");
    assertThat(id)
        .matches("msg_[0-9a-f]{32}")
        .isEqualTo(
            WebhookMessage.messageId(
                "alice", run, WebhookEvent.RUN_COMPLETED, "u1", agent, "http://x"))
        .isNotEqualTo(
            WebhookMessage.messageId(
                "bob", run, WebhookEvent.RUN_COMPLETED, "u1", agent, "http://x"))
        .isNotEqualTo(
            WebhookMessage.messageId(
                "alice", run, WebhookEvent.RUN_FAILED, "u1", agent, "http://x"))
        .isNotEqualTo(
            WebhookMessage.messageId(
                "alice", run, WebhookEvent.RUN_COMPLETED, "u2", agent, "http://x"))
        .isNotEqualTo(
            WebhookMessage.messageId(
                "alice", run, WebhookEvent.RUN_COMPLETED, "u1", schedule, "http://x"))
        .isNotEqualTo(
            WebhookMessage.messageId(
                "alice", run, WebhookEvent.RUN_COMPLETED, "u1", agent, "http://y"));
  }

  @Test
  void signsAsTheStandardWebhooksSpecExampleDoes() {
    assertThat(
            WebhookSigner.ofSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
                .sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}"))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  /**
   * docs/webhooks.md shows a signed request; its signature must be what this signer makes of it.
   */
  @Test
  void theRequestShownInTheDocsCarriesTheSignatureOfItsSecret() throws IOException {
    String docs = Files.readString(Path.of("..", "docs", "webhooks.md"));
    String request =
        docs.substring(
            docs.indexOf("```http") + 7, docs.indexOf("```", docs.indexOf("```http") + 7));
    String id = header(request, "webhook-id");
    long timestamp = Long.parseLong(header(request, "webhook-timestamp"));
    String body = request.substring(request.indexOf("\n\n") + 2).strip();
    String secret = docs.replaceAll("(?s).*`(whsec_[A-Za-z0-9+/=]+)`.*", "$1");

    assertThat(WebhookSigner.ofSecret(secret).sign(id, timestamp, body))
        .isEqualTo(header(request, "webhook-signature"));
    assertThat(body).startsWith("{\"type\":\"run.completed\",\"timestamp\":");
  }

  private static String header(String request, String name) {
    return request
        .lines()
        .filter(line -> line.startsWith(name + ": "))
        .findFirst()
        .map(line -> line.substring(name.length() + 2).strip())
        .orElseThrow(() -> new AssertionError("no " + name));
  }

  private static Run run(String phase) {
    Run run = new Run();
    run.setMetadata(meta("run-abc-2"));
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    spec.setAgent("agent-helper");
    spec.setEnvironment("env-web");
    spec.setSchedule("schedule-nightly");
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    status.setPhase(phase);
    status.setCompletedAt("2026-11-01T10:00:00.250Z");
    run.setStatus(status);
    return run;
  }

  private static Agent agent(WebhookEndpoint... endpoints) {
    Agent agent = new Agent();
    agent.setMetadata(meta("agent-helper"));
    agent.setSpec(new AgentSpec());
    agent.getSpec().setWebhooks(List.of(endpoints));
    return withUid(agent);
  }

  private static Environment environment(WebhookEndpoint... endpoints) {
    Environment environment = new Environment();
    environment.setMetadata(meta("env-web"));
    environment.setSpec(new EnvironmentSpec());
    environment.getSpec().setWebhooks(List.of(endpoints));
    return withUid(environment);
  }

  private static Schedule schedule(WebhookEndpoint... endpoints) {
    Schedule schedule = new Schedule();
    schedule.setMetadata(meta("schedule-nightly"));
    schedule.setSpec(new ScheduleSpec());
    schedule.getSpec().setWebhooks(List.of(endpoints));
    return withUid(schedule);
  }

  private static <T extends HasMetadata> T withUid(T resource) {
    resource.getMetadata().setUid("uid-" + resource.getKind());
    return resource;
  }

  private static io.fabric8.kubernetes.api.model.ObjectMeta meta(String name) {
    return new ObjectMetaBuilder().withNamespace("alice").withName(name).build();
  }

  private static WebhookEndpoint endpoint(String url, WebhookEvent... events) {
    return new WebhookEndpoint(url, List.of(events), SECRET);
  }
}
