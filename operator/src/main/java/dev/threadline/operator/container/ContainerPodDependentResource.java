package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.api.reconciler.dependent.ReconcileResult;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The container's {@link ContainerPod}. Created, never updated (a Pod's spec is immutable); one
 * that ended is replaced by the reconciler deleting it. A container that claimed a warm pool's Pod
 * ({@link ContainerClaim}) adopts it by the name its status records and never gets a second one.
 * The workflow reconciles it only after the NetworkPolicy and the access Secret, so it never
 * listens unprotected or without its token.
 */
@KubernetesDependent(
    informer = @Informer(labelSelector = ContainerPod.SELECTOR_PREFIX + ContainerPod.COMPONENT))
public class ContainerPodDependentResource extends KubernetesDependentResource<Pod, Container>
    implements Creator<Pod, Container>, GarbageCollected<Container> {
  public static final String NAME = "container-pod";

  public ContainerPodDependentResource() {
    super(Pod.class);
  }

  /** A claimed start's Pod is the pool Pod its status names: adopted, never created. */
  @Override
  public ReconcileResult<Pod> reconcile(Container container, Context<Container> context) {
    if (claimed(container)) {
      return ReconcileResult.noOperation(getSecondaryResource(container, context).orElse(null));
    }
    return super.reconcile(container, context);
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Container container, Context<Container> context) {
    return new ResourceID(podName(container), container.getMetadata().getNamespace());
  }

  /**
   * The name of the container's Pod: the claimed pool Pod its status records, else its own. Other
   * Pods it owns (a pool Pod it gave up, still terminating) are not its Pod.
   */
  static String podName(Container container) {
    return claimed(container) && container.getStatus().getPod() != null
        ? container.getStatus().getPod()
        : ContainerObjects.podName(container.getMetadata().getName());
  }

  private static boolean claimed(Container container) {
    return container.getStatus() != null
        && ContainerStatus.START_CLAIMED.equals(container.getStatus().getStart());
  }

  @Override
  protected Pod desired(Container container, Context<Container> context) {
    ContainerPlan plan = ContainerPlan.of(context);
    return new ContainerPod(
            container,
            plan.environment().image(),
            container.getStatus().getPort(),
            plan.settings().containers().bindAddress(),
            plan.settings().agentPod())
        .build();
  }
}
