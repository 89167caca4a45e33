package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;

/**
 * The container's {@link ContainerPod}. Created, never updated (a Pod's spec is immutable); one
 * that ended is replaced by the reconciler deleting it. The workflow reconciles it only after the
 * NetworkPolicy and the access Secret, so it never listens unprotected or without its token.
 */
@KubernetesDependent(
    informer = @Informer(labelSelector = ContainerPod.SELECTOR_PREFIX + ContainerPod.COMPONENT))
public class ContainerPodDependentResource extends KubernetesDependentResource<Pod, Container>
    implements Creator<Pod, Container>, GarbageCollected<Container> {
  public static final String NAME = "container-pod";

  public ContainerPodDependentResource() {
    super(Pod.class);
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
