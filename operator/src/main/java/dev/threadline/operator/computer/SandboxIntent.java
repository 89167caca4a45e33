package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Duration;

/**
 * What one reconcile of a computer run wants of its sandbox's dependents (credential Secret,
 * NetworkPolicy, Pod): made as {@link #sandbox} describes, or gone. The reconciler puts it into the
 * reconcile's context before it invokes the workflow (the framework makes the dependents, so they
 * cannot be given it at construction).
 *
 * @param sandbox the run's sandbox objects, or null when they go
 * @param fromPool the Pod is (being) claimed from a warm pool: the Pod dependent adopts it and
 *     never creates one
 * @param deleteGrace how long the Pod may take to stop when it goes (a cancel's grace), or null for
 *     the Pod's own
 */
record SandboxIntent(RunSandbox sandbox, boolean fromPool, Duration deleteGrace) {

  static SandboxIntent make(RunSandbox sandbox, boolean fromPool) {
    return new SandboxIntent(sandbox, fromPool, null);
  }

  static SandboxIntent remove(Duration deleteGrace) {
    return new SandboxIntent(null, false, deleteGrace);
  }

  boolean wanted() {
    return sandbox != null;
  }

  void putInto(Context<Run> context) {
    context.managedWorkflowAndDependentResourceContext().put(SandboxIntent.class, this);
  }

  static SandboxIntent of(Context<Run> context) {
    return context
        .managedWorkflowAndDependentResourceContext()
        .getMandatory(SandboxIntent.class, SandboxIntent.class);
  }
}
