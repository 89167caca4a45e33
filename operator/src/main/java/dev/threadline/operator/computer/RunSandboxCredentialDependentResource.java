package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/**
 * The run's sandbox credential ({@link RunSandbox#credential()}): created once and never updated —
 * its random bytes would differ on every reconcile, and the sandbox and the worker hold the first
 * ones. Deleted (after the Pod) when the run ends.
 */
@KubernetesDependent(informer = @Informer(labelSelector = AgentObjects.SELECTOR))
public class RunSandboxCredentialDependentResource
    extends RunSandboxObjectDependentResource<Secret> {
  public static final String NAME = "run-sandbox-credential";

  public RunSandboxCredentialDependentResource() {
    super(Secret.class);
  }

  @Override
  protected Secret desired(Run run, Context<Run> context) {
    return SandboxIntent.of(context).sandbox().credential();
  }

  @Override
  String nameFor(Run run) {
    return AgentObjects.sandboxCredentialName(run);
  }
}
