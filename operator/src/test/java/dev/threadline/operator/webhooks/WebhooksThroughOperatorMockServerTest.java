package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.webhook.WebhookDelivery;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.LoopbackServer;
import dev.threadline.operator.support.OperatorMockServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The whole operator as {@link ThreadlineOperator} wires it: a run answered directly reaches its
 * agent's webhook.
 */
@EnableKubernetesMockClient(crud = true)
class WebhooksThroughOperatorMockServerTest {
  private static final String NS = "alice";
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  static KubernetesMockServer server;
  static KubernetesClient client;

  @Test
  void aGreetingAnsweredByTheOperatorIsAnnouncedToTheAgentsWebhook() throws Exception {
    OperatorMockServer.registerCrds(server, client);
    List<String> bodies = new CopyOnWriteArrayList<>();
    LoopbackServer receiver =
        LoopbackServer.start(
            "/hook",
            exchange -> {
              bodies.add(
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
              exchange.sendResponseHeaders(204, -1);
            });
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_WEBHOOK_ALLOW_PRIVATE_TARGETS", "true",
                "THREADLINE_WEBHOOK_RETRY_DELAYS", "100ms"));
    try (ThreadlineOperator operator = ThreadlineOperator.start(client, settings)) {
      client
          .resource(
              new SecretBuilder()
                  .withMetadata(new ObjectMetaBuilder().withNamespace(NS).withName("hooks").build())
                  .addToData(
                      "secret",
                      Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)))
                  .build())
          .create();
      Agent agent = new Agent();
      agent.setMetadata(new ObjectMetaBuilder().withNamespace(NS).withName("agent-helper").build());
      agent.setSpec(new AgentSpec());
      agent.getSpec().setModel("scripted-1");
      agent
          .getSpec()
          .setWebhooks(
              List.of(
                  new WebhookEndpoint(
                      receiver.url("/hook"),
                      List.of(),
                      new SecretKeyReference("hooks", "secret"))));
      client.resource(agent).create();
      ConversationThread thread = new ConversationThread();
      thread.setMetadata(
          new ObjectMetaBuilder().withNamespace(NS).withName("thread-greet").build());
      thread.setSpec(new ThreadSpec());
      thread.getSpec().setAgent("agent-helper");
      thread = client.resource(thread).create();
      client
          .resource(ThreadRuns.newRun(thread, 1, "Hello!", List.of(), ThreadRuns.SOURCE_API))
          .create();

      await().atMost(Duration.ofSeconds(20)).until(() -> !bodies.isEmpty());
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() ->
              client.resources(WebhookDelivery.class).inNamespace(NS).list().getItems().stream()
                  .anyMatch(d ->
                      d.getStatus() != null
                          && d.getStatus().getState() == WebhookDeliveryState.DELIVERED));

      assertThat(bodies)
          .singleElement()
          .satisfies(body ->
              assertThat(body)
                  .startsWith("{\"type\":\"run.completed\"")
                  .contains(
                      "\"threadId\":\"thread_greet\",\"runId\":\"run_greet-1\",\"agentId\":\"agent_helper\""));
      Run run = client.resources(Run.class).inNamespace(NS).withName("run-greet-1").get();
      assertThat(run.getStatus().getWebhooksQueued()).isTrue();
    } finally {
      receiver.close();
    }
  }
}
