package dev.threadline.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.support.OperatorMockServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An Agent with a wrongly typed field (what a CRD/operator version skew delivers) is stored; the
 * operator skips it and keeps reconciling the others, whether it was there at start or arrives by
 * watch.
 */
@EnableKubernetesMockClient(crud = true)
class UnreadableObjectMockServerTest {
  static KubernetesMockServer server;
  static KubernetesClient client;

  @Test
  void operatorSkipsAnAgentItCannotReadAndKeepsReconciling() {
    OperatorMockServer.registerCrds(server, client);
    storeUnreadableAgent("agent-skewed-before");
    try (KubernetesClient tolerant =
            ThreadlineClients.builder("threadline-operator")
                .withConfig(client.getConfiguration())
                .build();
        ThreadlineOperator operator =
            ThreadlineOperator.start(tolerant, OperatorSettings.defaults().withHealthPort(-1))) {
      client.resource(agent("agent-good-one")).create();
      awaitReady("agent-good-one");

      storeUnreadableAgent("agent-skewed-after");
      client.resource(agent("agent-good-two")).create();
      awaitReady("agent-good-two");
      await().atMost(Duration.ofSeconds(10)).until(operator::isReady);
    }
  }

  private static void storeUnreadableAgent(String name) {
    GenericKubernetesResource skewed =
        client
            .getKubernetesSerialization()
            .unmarshal(
                """
                {"apiVersion": "threadline.dev/v1alpha1", "kind": "Agent",
                 "metadata": {"name": "%s", "namespace": "default"},
                 "spec": {"provider": "scripted", "model": {"expected": "a string"}}}
                """
                    .formatted(name),
                GenericKubernetesResource.class);
    client
        .genericKubernetesResources("threadline.dev/v1alpha1", "Agent")
        .inNamespace("default")
        .resource(skewed)
        .create();
  }

  private static Agent agent(String name) {
    return client
        .getKubernetesSerialization()
        .unmarshal(
            """
            {"apiVersion": "threadline.dev/v1alpha1", "kind": "Agent",
             "metadata": {"name": "%s", "namespace": "default"},
             "spec": {"provider": "scripted", "model": "scripted-1"}}
            """
                .formatted(name),
            Agent.class);
  }

  private static void awaitReady(String name) {
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(() -> {
          Agent seen = client.resources(Agent.class).inNamespace("default").withName(name).get();
          assertThat(seen.getStatus()).isNotNull();
          assertThat(seen.getStatus().getConditions())
              .anySatisfy(condition -> {
                assertThat(condition.getType()).isEqualTo("Ready");
                assertThat(condition.getStatus()).isEqualTo("True");
              });
        });
  }
}
