package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Objects;

/**
 * The container's {@link ContainerNetworkPolicy}, kept as the operator's configuration and the
 * environment's {@code internetAccess} say now: a policy made by an older operator gets the current
 * rules.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ContainerPod.SELECTOR_PREFIX + "network"))
public class ContainerNetworkPolicyDependentResource
    extends CRUDKubernetesDependentResource<NetworkPolicy, Container> {
  public static final String NAME = "container-network-policy";

  public ContainerNetworkPolicyDependentResource() {
    super(NetworkPolicy.class);
  }

  @Override
  protected NetworkPolicy desired(Container container, Context<Container> context) {
    ContainerPlan plan = ContainerPlan.of(context);
    return ContainerNetworkPolicy.of(
        container,
        container.getStatus().getPort(),
        plan.environment().internetAccess(),
        plan.settings().containers(),
        plan.settings().network());
  }

  @Override
  public Matcher.Result<NetworkPolicy> match(
      NetworkPolicy actual, Container container, Context<Container> context) {
    NetworkPolicy desired = desired(container, context);
    return Matcher.Result.computed(Objects.equals(actual.getSpec(), desired.getSpec()), desired);
  }
}
