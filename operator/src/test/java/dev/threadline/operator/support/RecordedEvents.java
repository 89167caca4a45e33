package dev.threadline.operator.support;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The Kubernetes Events recorded about one object, as {@code kubectl describe} would list them. */
public final class RecordedEvents {
  private RecordedEvents() {}

  public static List<Event> about(KubernetesClient client, String namespace, String name) {
    return client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(event -> name.equals(event.getInvolvedObject().getName()))
        .toList();
  }

  public static List<String> reasons(KubernetesClient client, String namespace, String name) {
    return about(client, namespace, name).stream().map(Event::getReason).toList();
  }
}
