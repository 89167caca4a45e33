package dev.threadline.operator.run;

import dev.threadline.core.routing.Route;
import dev.threadline.core.routing.RoutingDecision;
import dev.threadline.core.routing.RoutingRules;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.Usage;
import dev.threadline.operator.model.AgentProfile;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every message passes through here. A real model decides and answers in the same call: it answers
 * in text, or hands the message to the computer through {@link ComputerHandoff}. The offline
 * scripted model (or a model that fails) leaves the decision to {@link RoutingRules}.
 */
public final class RunRouter {
  private static final Logger LOG = LoggerFactory.getLogger(RunRouter.class);

  /**
   * Where a message goes and, on the direct path, its answer.
   *
   * @param answer the direct answer (or its failure); empty on the computer path
   * @param spent what the routing call itself cost when the model handed the message to the
   *     computer (the run's usage starts from it); zero otherwise
   * @param task the task the model gave the computer when it handed the message over
   */
  public record Routed(
      RoutingDecision decision, Optional<RunOutcome> answer, Usage spent, Optional<String> task) {
    Routed(RoutingDecision decision, Optional<RunOutcome> answer) {
      this(decision, answer, Usage.ZERO, Optional.empty());
    }
  }

  private final DirectAnswer direct;

  public RunRouter(DirectAnswer direct) {
    this.direct = direct;
  }

  public Routed route(
      String message,
      boolean hasAttachments,
      AgentProfile agent,
      ModelProvider provider,
      List<ChatMessage> history,
      TextDeltas deltas) {
    if ("scripted".equals(agent.provider())) {
      return byRules(RoutingRules.route(message, hasAttachments), agent, provider, history, deltas);
    }
    DirectAnswer.Turn turn =
        direct.answerOrHandOff(agent, provider, history, hasAttachments, deltas);
    if (turn.modelFailed()) {
      LOG.warn(
          "Routing by rules: the {} model could not answer ({})",
          agent.provider(),
          turn.outcome().errorMessage());
      RoutingDecision rules = RoutingRules.route(message, hasAttachments);
      RoutingDecision decision =
          new RoutingDecision(rules.route(), rules.reason() + " (the model was unavailable)");
      return new Routed(
          decision,
          decision.route() == Route.DIRECT ? Optional.of(turn.outcome()) : Optional.empty());
    }
    if (turn.handoff().isPresent()) {
      return new Routed(
          new RoutingDecision(Route.COMPUTER, turn.handoff().get().reason()),
          Optional.empty(),
          turn.outcome().usage(),
          turn.handoff().get().task());
    }
    return new Routed(
        new RoutingDecision(Route.DIRECT, "the model answered directly"),
        Optional.of(turn.outcome()));
  }

  /** The route the rules chose; a direct one is answered by a call without the hand-off tool. */
  private Routed byRules(
      RoutingDecision rules,
      AgentProfile agent,
      ModelProvider provider,
      List<ChatMessage> history,
      TextDeltas deltas) {
    if (rules.route() == Route.COMPUTER) {
      return new Routed(rules, Optional.empty());
    }
    return new Routed(rules, Optional.of(direct.answer(agent, provider, history, deltas)));
  }
}
