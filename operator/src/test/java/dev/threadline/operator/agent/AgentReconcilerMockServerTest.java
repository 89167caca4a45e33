package dev.threadline.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class AgentReconcilerMockServerTest {
  static KubernetesMockServer server;
  static KubernetesClient client;

  private ThreadlineOperator operator;

  @BeforeEach
  void startOperator() {
    OperatorMockServer.registerCrds(server, client);
    operator = ThreadlineOperator.start(client, OperatorSettings.defaults().withHealthPort(0));
  }

  @AfterEach
  void stopOperator() {
    operator.close();
  }

  @Test
  void validAgentBecomesReadyAndConditionsDoNotGrow() {
    Agent agent = client.resource(agent("agent-one", "scripted", "scripted-1")).create();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          Agent seen =
              client.resources(Agent.class).inNamespace("default").withName("agent-one").get();
          assertThat(seen.getStatus()).isNotNull();
          assertThat(seen.getStatus().getConditions())
              .singleElement()
              .extracting(Condition::getType, Condition::getStatus)
              .containsExactly("Ready", "True");
          assertThat(seen.getStatus().getObservedGeneration())
              .isEqualTo(seen.getMetadata().getGeneration());
        });

    agent.getSpec().setInstructions("Be brief.");
    client
        .resources(Agent.class)
        .inNamespace("default")
        .withName("agent-one")
        .edit(a -> {
          a.getSpec().setInstructions("Be brief.");
          return a;
        });

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          Agent seen =
              client.resources(Agent.class).inNamespace("default").withName("agent-one").get();
          assertThat(seen.getMetadata().getGeneration()).isGreaterThan(1L);
          assertThat(seen.getStatus().getObservedGeneration())
              .isEqualTo(seen.getMetadata().getGeneration());
          assertThat(seen.getStatus().getConditions()).hasSize(1);
        });
  }

  @Test
  void unknownProviderIsReportedOnTheReadyCondition() {
    client.resource(agent("agent-bad", "acme", "m")).create();

    assertEventuallyInvalid("agent-bad", "spec.provider must be one of");
  }

  @Test
  void modelWithoutAPriceIsReportedOnTheReadyCondition() {
    // Applied with kubectl, past the API's check: the operator has no prices configured here.
    client.resource(agent("agent-unpriced", "openai", "gpt-4.1-mini")).create();

    assertEventuallyInvalid(
        "agent-unpriced", "spec.model has no known price (THREADLINE_MODEL_PRICES)");
  }

  private static void assertEventuallyInvalid(String name, String problem) {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          Agent seen = client.resources(Agent.class).inNamespace("default").withName(name).get();
          assertThat(seen.getStatus()).isNotNull();
          Condition ready = seen.getStatus().getConditions().get(0);
          assertThat(ready.getStatus()).isEqualTo("False");
          assertThat(ready.getReason()).isEqualTo("InvalidSpec");
          assertThat(ready.getMessage()).contains(problem);
        });
  }

  @Test
  void servesHealthReadinessAndMetrics() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + operator.healthPort();
    assertThat(
            http.send(
                    HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            http.send(
                        HttpRequest.newBuilder(URI.create(base + "/readyz")).build(),
                        HttpResponse.BodyHandlers.ofString())
                    .statusCode()
                == 200);
    client.resource(agent("agent-metrics", "scripted", "m")).create();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(
                    http.send(
                            HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                            HttpResponse.BodyHandlers.ofString())
                        .body())
                .contains("operator_sdk"));
  }

  private static Agent agent(String name, String provider, String model) {
    Agent agent = new Agent();
    agent.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
    AgentSpec spec = new AgentSpec();
    spec.setProvider(provider);
    spec.setModel(model);
    agent.setSpec(spec);
    return agent;
  }
}
