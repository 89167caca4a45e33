package dev.threadline.operator.run;

import dev.threadline.core.routing.Route;
import dev.threadline.core.routing.RoutingDecision;
import dev.threadline.core.routing.RoutingRules;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelRequest;
import dev.threadline.operator.model.AgentProfile;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every message passes through here. A real model classifies it; the offline scripted model (or a
 * model that fails or answers off-script) leaves the decision to {@link RoutingRules}.
 */
public final class RunRouter {
  private static final Logger LOG = LoggerFactory.getLogger(RunRouter.class);
  static final String CLASSIFIER_INSTRUCTIONS =
      """
      You route messages for an agent service. Answer with one word.
      COMPUTER: the message asks to run commands, create, edit or delete files, change or test code, \
      install packages, or otherwise act in a workspace.
      DIRECT: greetings, questions, explanations and anything answerable with text alone.\
      """;

  public RoutingDecision route(
      String message, boolean hasAttachments, AgentProfile agent, ModelProvider provider) {
    if ("scripted".equals(agent.provider())) {
      return RoutingRules.route(message, hasAttachments);
    }
    try {
      String text = (hasAttachments ? "[files are attached]\n" : "") + message;
      String answer =
          provider
              .complete(
                  new ModelRequest(
                      agent.model(),
                      CLASSIFIER_INSTRUCTIONS,
                      List.of(ChatMessage.user(text)),
                      List.of(),
                      5))
              .text()
              .strip()
              .toUpperCase(Locale.ROOT);
      if (answer.startsWith("COMPUTER")) {
        return new RoutingDecision(
            Route.COMPUTER, "the model classified the message as work for the computer");
      }
      if (answer.startsWith("DIRECT")) {
        return new RoutingDecision(
            Route.DIRECT, "the model classified the message as answerable directly");
      }
      RoutingDecision rules = RoutingRules.route(message, hasAttachments);
      return new RoutingDecision(
          rules.route(), rules.reason() + " (the model's classification was unclear)");
    } catch (ModelException e) {
      LOG.warn(
          "Routing by rules: the {} model could not classify ({})", agent.provider(), e.code());
      RoutingDecision rules = RoutingRules.route(message, hasAttachments);
      return new RoutingDecision(rules.route(), rules.reason() + " (the model was unavailable)");
    }
  }
}
