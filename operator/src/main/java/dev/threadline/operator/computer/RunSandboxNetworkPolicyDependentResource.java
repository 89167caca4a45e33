package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Objects;

/**
 * The run's sandbox NetworkPolicy ({@link RunSandbox#networkPolicy()}): only the worker may
 * connect, on the sandbox's port. Kept equal to the wanted spec while the sandbox is being made — a
 * claim that moves on to a pool Pod on another port, or falls back to a cold start, moves the
 * policy's port with it. Deleted (after the Pod) when the run ends.
 */
@KubernetesDependent(informer = @Informer(labelSelector = AgentObjects.SELECTOR))
public class RunSandboxNetworkPolicyDependentResource
    extends CRUDKubernetesDependentResource<NetworkPolicy, Run> {
  public static final String NAME = "run-sandbox-network-policy";

  public RunSandboxNetworkPolicyDependentResource() {
    super(NetworkPolicy.class);
  }

  @Override
  protected NetworkPolicy desired(Run run, Context<Run> context) {
    return SandboxIntent.of(context).sandbox().networkPolicy();
  }

  @Override
  public Matcher.Result<NetworkPolicy> match(NetworkPolicy actual, Run run, Context<Run> context) {
    NetworkPolicy desired = desired(run, context);
    return Matcher.Result.computed(Objects.equals(actual.getSpec(), desired.getSpec()), desired);
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Run run, Context<Run> context) {
    return new ResourceID(AgentObjects.networkPolicyName(run), run.getMetadata().getNamespace());
  }
}
