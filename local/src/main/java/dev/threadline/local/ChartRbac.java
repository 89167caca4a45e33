package dev.threadline.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The Helm chart's ServiceAccounts, Roles, ClusterRoles and bindings, as {@code chart-rbac.yaml}
 * holds them (generated from the rendered chart; the helm module's ChartRbacForLocalModeTest keeps
 * it current), installed into the embedded API so that the local mode's operator and api-server run
 * under exactly the identities and rules a cluster gives them, and the operator can bind the
 * schedule trigger's ClusterRole as it does there.
 */
final class ChartRbac {
  static final String RESOURCE = "chart-rbac.yaml";
  private static final String COMPONENT = "app.kubernetes.io/component";

  private final List<HasMetadata> objects;

  private ChartRbac(List<HasMetadata> objects) {
    this.objects = objects;
  }

  static ChartRbac load(KubernetesClient client) {
    try (InputStream in = ChartRbac.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return new ChartRbac(client.load(in).items());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** Creates every object, or replaces the one there: the chart's rules win at each start. */
  void install(KubernetesClient client) {
    for (HasMetadata object : objects) {
      object.getMetadata().setResourceVersion(null);
      client.resource(object).createOr(existing -> existing.update());
    }
  }

  /** The name of the ServiceAccount the chart gives a component ({@code operator}, ...). */
  String serviceAccountOf(String component) {
    return objects.stream()
        .filter(o -> o.getKind().equals("ServiceAccount"))
        .filter(o -> component.equals(o.getMetadata().getLabels().get(COMPONENT)))
        .map(o -> o.getMetadata().getName())
        .findFirst()
        .orElseThrow(() ->
            new IllegalStateException(RESOURCE + " has no ServiceAccount of the " + component));
  }

  /** The namespace the chart was rendered into: its ServiceAccounts'. */
  String namespace() {
    return objects.stream()
        .filter(o -> o.getKind().equals("ServiceAccount"))
        .map(o -> o.getMetadata().getNamespace())
        .findFirst()
        .orElseThrow();
  }
}
