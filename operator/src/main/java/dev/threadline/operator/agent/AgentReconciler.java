package dev.threadline.operator.agent;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentStatus;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agents own nothing: the reconciler only says, through the Ready condition, whether one is usable.
 */
@ControllerConfiguration(name = "agent")
public class AgentReconciler implements Reconciler<Agent> {
  private static final Logger LOG = LoggerFactory.getLogger(AgentReconciler.class);

  private final Conditions conditions;
  private final ModelPricing pricing;

  public AgentReconciler(Conditions conditions, ModelPricing pricing) {
    this.conditions = conditions;
    this.pricing = pricing;
  }

  @Override
  public UpdateControl<Agent> reconcile(Agent agent, Context<Agent> context) {
    List<String> problems = AgentValidation.problems(agent.getSpec(), pricing);
    AgentStatus current = agent.getStatus() == null ? new AgentStatus() : agent.getStatus();
    long generation = Objects.requireNonNullElse(agent.getMetadata().getGeneration(), 0L);

    AgentStatus next = new AgentStatus();
    next.setObservedGeneration(generation);
    next.setConditions(
        conditions.summarise(
            current.getConditions(),
            problems.isEmpty()
                ? Conditions.Summary.ready("Valid", "The agent is ready to run.")
                : Conditions.Summary.stalled("InvalidSpec", String.join("; ", problems)),
            generation));

    if (sameStatus(current, next)) {
      return UpdateControl.noUpdate();
    }
    LOG.info("ready={}", problems.isEmpty());
    agent.setStatus(next);
    return UpdateControl.patchStatus(agent);
  }

  private static boolean sameStatus(AgentStatus a, AgentStatus b) {
    return Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
        && Objects.equals(a.getConditions(), b.getConditions());
  }

  @Override
  public ErrorStatusUpdateControl<Agent> updateErrorStatus(
      Agent agent, Context<Agent> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, agent, AgentStatus::new, e);
  }
}
