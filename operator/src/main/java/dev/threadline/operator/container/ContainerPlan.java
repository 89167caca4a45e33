package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.config.OperatorSettings;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * What the container's dependents need beyond the Container itself: the resolved environment and
 * the operator's settings. The reconciler puts it into the reconcile's context before it invokes
 * the workflow (the framework makes the dependents, so they cannot be given it at construction).
 */
record ContainerPlan(AgentEnvironment environment, OperatorSettings settings) {

  void putInto(Context<Container> context) {
    context.managedWorkflowAndDependentResourceContext().put(ContainerPlan.class, this);
  }

  static ContainerPlan of(Context<Container> context) {
    return context
        .managedWorkflowAndDependentResourceContext()
        .getMandatory(ContainerPlan.class, ContainerPlan.class);
  }
}
