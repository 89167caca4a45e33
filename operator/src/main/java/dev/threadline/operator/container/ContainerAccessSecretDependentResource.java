package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;

/**
 * The container's access token ({@link ContainerAccessSecret}): created once and never updated —
 * its random bytes would differ on every reconcile, and the runner and the api-server hold the
 * first ones.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ContainerPod.SELECTOR_PREFIX + "access"))
public class ContainerAccessSecretDependentResource
    extends KubernetesDependentResource<Secret, Container>
    implements Creator<Secret, Container>, GarbageCollected<Container> {
  public static final String NAME = "container-access-secret";

  public ContainerAccessSecretDependentResource() {
    super(Secret.class);
  }

  @Override
  protected Secret desired(Container container, Context<Container> context) {
    return ContainerAccessSecret.of(container);
  }
}
