package dev.threadline.crds.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.ExampleManifests;
import dev.threadline.crds.agent.Agent;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The GitOps webhook example reads as an Agent whose spec names its Secret, never the secret. */
class WebhookExamplesTest {
  @Test
  void agentReferencesItsSigningSecret() throws IOException {
    Agent agent = ExampleManifests.first("webhooks.yaml", "Agent", Agent.class);

    assertThat(agent.getSpec().getWebhooks())
        .singleElement()
        .satisfies(endpoint -> {
          assertThat(endpoint.getUrl()).startsWith("https://");
          assertThat(endpoint.getEvents())
              .containsExactly(WebhookEvent.RUN_COMPLETED, WebhookEvent.RUN_FAILED);
          assertThat(endpoint.wants(WebhookEvent.RUN_CANCELLED)).isFalse();
          assertThat(endpoint.getSecretRef().getName()).isEqualTo("ci-webhook-signing");
          assertThat(endpoint.getSecretRef().getKey()).isEqualTo("secret");
        });
    assertThat(ExampleManifests.json(agent.getSpec())).doesNotContain("whsec_");
  }

  @Test
  void anEndpointWithoutEventsWantsEveryEvent() {
    WebhookEndpoint endpoint = new WebhookEndpoint();
    for (WebhookEvent event : WebhookEvent.values()) {
      assertThat(endpoint.wants(event)).isTrue();
    }
    assertThat(WebhookEvent.find("run.completed")).contains(WebhookEvent.RUN_COMPLETED);
    assertThat(WebhookEvent.find("run.started")).isEmpty();
  }
}
