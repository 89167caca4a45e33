package dev.threadline.crds.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * How every Threadline process builds its Kubernetes client: one custom resource that this version
 * cannot read is logged and skipped, never the failure of a whole list or informer.
 */
public final class ThreadlineClients {
  private ThreadlineClients() {}

  /** A client builder (configure it further, e.g. {@code withConfig}) with that reading. */
  public static KubernetesClientBuilder builder() {
    ObjectMapper mapper = new ObjectMapper().registerModule(new UnreadableResourceSkipping());
    return new KubernetesClientBuilder()
        .withKubernetesSerialization(new KubernetesSerialization(mapper, true));
  }
}
