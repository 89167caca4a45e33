package dev.threadline.api.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.client.ThreadlineClients;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * An Agent with a wrongly typed field (what a CRD/API server version skew delivers) is stored; the
 * API server skips it and keeps serving, whether it was there at start or arrives by watch.
 */
class UnreadableObjectMockServerTest {
  @Test
  void apiServerSkipsAnAgentItCannotReadAndKeepsServing() throws Exception {
    SharedApiServer shared = SharedApiServer.get();
    TestUser alice = shared.newUser("alice");
    storeUnreadableAgent(shared, alice, "agent-skewedbefore00000000");
    try (KubernetesClient client =
            ThreadlineClients.builder("threadline-api-server")
                .withConfig(shared.client().getConfiguration())
                .build();
        RunningApiServer server =
            ThreadlineApiServer.start(client, ApiServerSettings.loopback("threadline-system"))) {
      ApiClient api = new ApiClient(server.baseUrl());
      api.awaitAccepted(alice.key());
      String first = createAgent(api, alice, "first");
      assertThat(listedAgentIds(api, alice)).containsExactly(first);

      storeUnreadableAgent(shared, alice, "agent-skewedafter000000000");
      String second = createAgent(api, alice, "second");
      assertThat(listedAgentIds(api, alice)).containsExactlyInAnyOrder(first, second);
      assertThat(api.get("/health", null).status()).isEqualTo(200);
    }
  }

  private static String createAgent(ApiClient api, TestUser user, String name) {
    ApiClient.Response created =
        api.post(
            "/v1/agents",
            user.key(),
            "{\"name\": \"" + name + "\", \"model\": \"m\", \"provider\": \"scripted\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().get("agent").get("id").asString();
  }

  private static List<String> listedAgentIds(ApiClient api, TestUser user) {
    ApiClient.Response listed = api.get("/v1/agents", user.key());
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    return StreamSupport.stream(listed.json().get("data").spliterator(), false)
        .map(agent -> agent.get("id").asString())
        .toList();
  }

  /** Through a plain client: the tolerant one cannot read back what it wrote. */
  private static void storeUnreadableAgent(SharedApiServer shared, TestUser user, String name) {
    try (KubernetesClient plain = shared.kubernetes().createClient()) {
      storeUnreadableAgent(plain, user, name);
    }
  }

  private static void storeUnreadableAgent(KubernetesClient client, TestUser user, String name) {
    GenericKubernetesResource skewed =
        client
            .getKubernetesSerialization()
            .unmarshal(
                """
                {"apiVersion": "threadline.dev/v1alpha1", "kind": "Agent",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"provider": "scripted", "model": {"expected": "a string"}}}
                """
                    .formatted(name, user.namespace()),
                GenericKubernetesResource.class);
    client
        .genericKubernetesResources("threadline.dev/v1alpha1", "Agent")
        .inNamespace(user.namespace())
        .resource(skewed)
        .create();
  }
}
