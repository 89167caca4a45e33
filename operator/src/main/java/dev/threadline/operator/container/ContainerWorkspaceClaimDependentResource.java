package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.container.Container;
import dev.threadline.operator.computer.WorkspaceClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;

/**
 * A persistent container's workspace claim. Created once: a claim's spec is immutable once bound,
 * and the files in it are the point. Wanted only while the container is persistent ({@link
 * PersistentContainer}); the workflow deletes it otherwise.
 */
@KubernetesDependent(
    informer = @Informer(labelSelector = ContainerPod.SELECTOR_PREFIX + "workspace"))
public class ContainerWorkspaceClaimDependentResource
    extends KubernetesDependentResource<PersistentVolumeClaim, Container>
    implements Creator<PersistentVolumeClaim, Container>, GarbageCollected<Container> {
  public static final String NAME = "container-workspace-claim";

  public ContainerWorkspaceClaimDependentResource() {
    super(PersistentVolumeClaim.class);
  }

  @Override
  protected PersistentVolumeClaim desired(Container container, Context<Container> context) {
    return WorkspaceClaim.of(
        ContainerObjects.workspaceClaimName(container.getMetadata().getName()),
        container,
        ContainerPod.labels(container, "workspace"),
        ContainerPlan.of(context).settings().agentPod());
  }
}
