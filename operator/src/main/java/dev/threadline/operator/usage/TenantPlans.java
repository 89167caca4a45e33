package dev.threadline.operator.usage;

import dev.threadline.core.usage.UsagePlan;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Optional;

/**
 * A tenant's plan and user id, read from the annotations of the tenant's namespace. Namespaces come
 * from an informer (they change rarely, and every run asks twice); one the cache does not hold yet
 * (created a moment ago) is read from the API, so a new tenant never gets the default plan by
 * mistake.
 */
public final class TenantPlans implements AutoCloseable {
  private final KubernetesClient client;
  private final UsagePlans plans;
  private final SharedIndexInformer<Namespace> namespaces;

  public TenantPlans(KubernetesClient client, UsagePlans plans) {
    this.client = client;
    this.plans = plans;
    this.namespaces = client.namespaces().inform();
  }

  public UsagePlan planOf(String namespace) {
    return plans.planFor(annotations(namespace));
  }

  /** The user id of the namespace, or the namespace's name when it names none. */
  public String userOf(String namespace) {
    return Optional.ofNullable(annotations(namespace).get(Labels.USER_ANNOTATION))
        .orElse(namespace);
  }

  private Map<String, String> annotations(String namespace) {
    Namespace found = namespaces.getIndexer().getByKey(namespace);
    if (found == null) {
      found = client.namespaces().withName(namespace).get();
    }
    return found == null || found.getMetadata().getAnnotations() == null
        ? Map.of()
        : found.getMetadata().getAnnotations();
  }

  @Override
  public void close() {
    namespaces.close();
  }
}
