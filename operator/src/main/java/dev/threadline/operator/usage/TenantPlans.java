package dev.threadline.operator.usage;

import dev.threadline.core.usage.UsagePlan;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;

/** A tenant's plan and user id, read from the annotations of the tenant's namespace. */
public final class TenantPlans {
  private final KubernetesClient client;
  private final UsagePlans plans;

  public TenantPlans(KubernetesClient client, UsagePlans plans) {
    this.client = client;
    this.plans = plans;
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
    Namespace found = client.namespaces().withName(namespace).get();
    return found == null || found.getMetadata().getAnnotations() == null
        ? Map.of()
        : found.getMetadata().getAnnotations();
  }
}
