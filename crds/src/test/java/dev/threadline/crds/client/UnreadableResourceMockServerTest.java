package dev.threadline.crds.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.agent.Agent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An Agent with a wrongly typed field (a CRD/client version skew) is skipped by lists and informers
 * of a Threadline client, which reports it in a Warning Event on the object.
 */
@EnableKubernetesMockClient(crud = true)
class UnreadableResourceMockServerTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  private static final ResourceDefinitionContext AGENTS =
      ResourceDefinitionContext.fromResourceType(Agent.class);

  static KubernetesClient client;

  @Test
  void aListSkipsTheObjectAndAnEventNamesIt() {
    store(skewed("agent-skewed-listed", "listed"));
    store(readable("agent-fine", "listed"));
    try (KubernetesClient tolerant = tolerantClient()) {
      List<Agent> agents = tolerant.resources(Agent.class).inNamespace("listed").list().getItems();

      assertThat(agents).extracting(a -> a.getMetadata().getName()).containsExactly("agent-fine");
      await().atMost(PROMPTLY).until(() -> !eventsAbout("listed", "agent-skewed-listed").isEmpty());
      Event event = eventsAbout("listed", "agent-skewed-listed").get(0);
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getReason()).isEqualTo("Unreadable");
      assertThat(event.getInvolvedObject().getKind()).isEqualTo("Agent");
      assertThat(event.getMessage())
          .isEqualTo(
              "test-component skips this Agent: field spec.model does not match this version's"
                  + " schema");
      assertThat(event.getSource().getComponent()).isEqualTo("test-component");

      // Read again: the same object version is reported once.
      tolerant.resources(Agent.class).inNamespace("listed").list();
      assertThat(eventsAbout("listed", "agent-skewed-listed")).hasSize(1);
    }
  }

  @Test
  void anInformerSkipsAnUnreadableVersionArrivingByWatchAndGoesOn() {
    store(readable("agent-watched", "watched"));
    try (KubernetesClient tolerant = tolerantClient();
        SharedIndexInformer<Agent> informer =
            tolerant.resources(Agent.class).inNamespace("watched").inform()) {
      await().atMost(PROMPTLY).until(() -> cached(informer, "agent-watched") != null);

      // Awaitility fails on an exception uncaught on any thread (fabric8's event thread too).
      replace(skewed("agent-watched", "watched"));
      store(readable("agent-after", "watched"));
      await().atMost(PROMPTLY).until(() -> cached(informer, "agent-after") != null);
      await().atMost(PROMPTLY).until(() -> eventsAbout("watched", "agent-watched").size() == 1);
      assertThat(informer.isWatching()).isTrue();
      // The last version it could read stays cached.
      assertThat(cached(informer, "agent-watched").getSpec().getModel()).isEqualTo("scripted-1");

      replace(agent("agent-watched", "watched", "\"scripted-2\""));
      await()
          .atMost(PROMPTLY)
          .until(() -> "scripted-2".equals(cached(informer, "agent-watched").getSpec().getModel()));
      assertThat(informer.isWatching()).isTrue();
    }
  }

  private static Agent cached(SharedIndexInformer<Agent> informer, String name) {
    return informer.getIndexer().getByKey("watched/" + name);
  }

  private static void replace(GenericKubernetesResource agent) {
    client
        .genericKubernetesResources(AGENTS)
        .inNamespace(agent.getMetadata().getNamespace())
        .resource(agent)
        .update();
  }

  private static KubernetesClient tolerantClient() {
    return ThreadlineClients.builder("test-component")
        .withConfig(client.getConfiguration())
        .build();
  }

  private static List<Event> eventsAbout(String namespace, String name) {
    return client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(event -> name.equals(event.getInvolvedObject().getName()))
        .toList();
  }

  private static void store(GenericKubernetesResource agent) {
    client
        .genericKubernetesResources(AGENTS)
        .inNamespace(agent.getMetadata().getNamespace())
        .resource(agent)
        .create();
  }

  private static GenericKubernetesResource skewed(String name, String namespace) {
    return agent(name, namespace, "{\"expected\": \"a string\"}");
  }

  private static GenericKubernetesResource readable(String name, String namespace) {
    return agent(name, namespace, "\"scripted-1\"");
  }

  private static GenericKubernetesResource agent(String name, String namespace, String model) {
    return client
        .getKubernetesSerialization()
        .unmarshal(
            """
            {"apiVersion": "threadline.dev/v1alpha1", "kind": "Agent",
             "metadata": {"name": "%s", "namespace": "%s"},
             "spec": {"provider": "scripted", "model": %s}}
            """
                .formatted(name, namespace, model),
            GenericKubernetesResource.class);
  }
}
