package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.ReconcileResult;

/**
 * The run's sandbox Pod, whichever way it came: a cold one ({@link RunSandbox#pod()}, named after
 * the run) it creates; one claimed from a warm pool it adopts — the claim made the Pod the run's
 * (labels, owner) and the run's status names it, so this dependent finds it by that name and never
 * creates a second Pod for a claimed start. Either is deleted when the run ends (a cancel's with
 * the cancel's grace period). Never updated: a Pod's spec is immutable. The workflow reconciles it
 * only after the credential Secret and the NetworkPolicy, so it never listens unprotected. It
 * shares the Run controller's sandbox Pod informer ({@value ComputerRuns#PODS}).
 */
public class RunSandboxPodDependentResource extends RunSandboxObjectDependentResource<Pod> {
  public static final String NAME = "run-sandbox-pod";

  public RunSandboxPodDependentResource() {
    super(Pod.class);
  }

  @Override
  public ReconcileResult<Pod> reconcile(Run run, Context<Run> context) {
    if (SandboxIntent.of(context).fromPool()) {
      return ReconcileResult.noOperation(getSecondaryResource(run, context).orElse(null));
    }
    return super.reconcile(run, context);
  }

  @Override
  protected Pod desired(Run run, Context<Run> context) {
    return SandboxIntent.of(context).sandbox().pod();
  }

  @Override
  protected void handleDelete(Run run, Pod pod, Context<Run> context) {
    if (pod == null) {
      return;
    }
    var grace = SandboxIntent.of(context).deleteGrace();
    var resource = context.getClient().resource(pod);
    if (grace == null) {
      resource.delete();
    } else {
      resource.withGracePeriod(grace.toSeconds()).delete();
    }
  }

  @Override
  String nameFor(Run run) {
    return AgentObjects.podName(run);
  }
}
