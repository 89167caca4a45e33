package dev.threadline.operator.support;

import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Threads as the API creates them, for tests that post runs on them. */
public final class Threads {
  private Threads() {}

  /** An empty thread {@code namespace/name}, created in the (mock) API. */
  public static ConversationThread create(KubernetesClient client, String namespace, String name) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    thread.setSpec(new ThreadSpec());
    return client.resource(thread).create();
  }
}
