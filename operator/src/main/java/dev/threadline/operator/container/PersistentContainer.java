package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** Only a persistent container keeps a workspace claim; an ephemeral one's is an emptyDir. */
public class PersistentContainer implements Condition<PersistentVolumeClaim, Container> {
  @Override
  public boolean isMet(
      DependentResource<PersistentVolumeClaim, Container> dependentResource,
      Container container,
      Context<Container> context) {
    return Boolean.TRUE.equals(container.getSpec().getPersistent());
  }
}
