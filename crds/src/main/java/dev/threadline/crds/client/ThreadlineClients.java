package dev.threadline.crds.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.crds.webhook.WebhookDelivery;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * How every Threadline process builds its Kubernetes client: one custom resource that this version
 * cannot read is logged, reported as a Warning Event on it, and skipped, never the failure of a
 * whole list or informer.
 */
public final class ThreadlineClients {
  /**
   * Every Threadline kind, registered with the client's serialization: a watch event's object is
   * then read as its class directly (an unreadable one as none, and the informer lists again and
   * leaves it out), not read generically and converted afterwards, a conversion whose null made
   * fabric8's informer throw "Unrecognized resource" on its event thread and keep a stale copy.
   */
  static final List<Class<? extends KubernetesResource>> KINDS =
      List.of(
          Agent.class,
          Container.class,
          ConversationThread.class,
          Environment.class,
          Run.class,
          Schedule.class,
          UsageLedger.class,
          WebhookDelivery.class);

  private ThreadlineClients() {}

  /**
   * A client builder (configure it further, e.g. {@code withConfig}) with that reading; skipped
   * objects are reported by {@code component} (e.g. {@code threadline-operator}) in Events written
   * through the client it builds.
   */
  public static KubernetesClientBuilder builder(String component) {
    UnreadableResourceEvents events = new UnreadableResourceEvents(component);
    KubernetesSerialization serialization = serialization(new ObjectMapper(), events);
    return new KubernetesClientBuilder() {
      @Override
      public KubernetesClient build() {
        KubernetesClient client = super.build();
        events.attach(client);
        return client;
      }
    }.withKubernetesSerialization(serialization);
  }

  /** fabric8's serialization on {@code mapper}, with the skipping reader and Blackbird. */
  static KubernetesSerialization serialization(
      ObjectMapper mapper, UnreadableResourceEvents events) {
    mapper.registerModule(new UnreadableResourceSkipping(events));
    KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
    // Blackbird reads and writes bean properties through generated lambdas instead of reflection
    // (reflective accessors had ~10% of the local mode's CPU). Registered after fabric8's modules:
    // Jackson calls the last registered bean modifier first, so Blackbird replaces the plain
    // properties before fabric8 wraps them; registered before, it would find only the wrappers.
    mapper.registerModule(new BlackbirdModule());
    KINDS.forEach(serialization::registerKubernetesResource);
    return serialization;
  }
}
