package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The run's sandbox credential ({@link RunSandbox#credential()}): created once and never updated —
 * its random bytes would differ on every reconcile, and the sandbox and the worker hold the first
 * ones. Deleted (after the Pod) when the run ends.
 */
@KubernetesDependent(informer = @Informer(labelSelector = AgentObjects.SELECTOR))
public class RunSandboxCredentialDependentResource extends KubernetesDependentResource<Secret, Run>
    implements Creator<Secret, Run>, GarbageCollected<Run> {
  public static final String NAME = "run-sandbox-credential";

  public RunSandboxCredentialDependentResource() {
    super(Secret.class);
  }

  @Override
  protected Secret desired(Run run, Context<Run> context) {
    return SandboxIntent.of(context).sandbox().credential();
  }

  @Override
  public Secret create(Secret desired, Run run, Context<Run> context) {
    return IdempotentCreate.orExisting(
        context.getClient(), desired, () -> super.create(desired, run, context));
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Run run, Context<Run> context) {
    return new ResourceID(
        AgentObjects.sandboxCredentialName(run), run.getMetadata().getNamespace());
  }
}
