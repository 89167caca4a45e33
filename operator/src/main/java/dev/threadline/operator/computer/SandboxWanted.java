package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * The reconcile precondition of a run's sandbox dependents: met while the run works (its {@link
 * SandboxIntent} describes the sandbox); once it has ended or is cancelled the workflow deletes
 * them, the Pod first.
 */
public class SandboxWanted implements Condition<Object, Run> {
  @Override
  public boolean isMet(
      DependentResource<Object, Run> dependentResource, Run run, Context<Run> context) {
    return SandboxIntent.of(context).wanted();
  }
}
