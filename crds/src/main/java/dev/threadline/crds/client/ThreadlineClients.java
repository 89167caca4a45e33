package dev.threadline.crds.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * How every Threadline process builds its Kubernetes client: one custom resource that this version
 * cannot read is logged, reported as a Warning Event on it, and skipped, never the failure of a
 * whole list or informer.
 */
public final class ThreadlineClients {
  private ThreadlineClients() {}

  /**
   * A client builder (configure it further, e.g. {@code withConfig}) with that reading; skipped
   * objects are reported by {@code component} (e.g. {@code threadline-operator}) in Events written
   * through the client it builds.
   */
  public static KubernetesClientBuilder builder(String component) {
    UnreadableResourceEvents events = new UnreadableResourceEvents(component);
    ObjectMapper mapper = new ObjectMapper().registerModule(new UnreadableResourceSkipping(events));
    KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
    return new KubernetesClientBuilder() {
      @Override
      public KubernetesClient build() {
        KubernetesClient client = super.build();
        events.attach(client);
        return client;
      }
    }.withKubernetesSerialization(serialization);
  }
}
