package dev.threadline.api.a2a;

import dev.threadline.api.agents.AgentView;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentProvider;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.TransportProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The A2A card of an agent (or of the server's default agent, for threads without one): name,
 * description and a skill from the agent's instructions, the JSON-RPC endpoint, streaming, and the
 * bearer API key every call needs.
 */
final class AgentCards {
  /** The name of the card's one security scheme. */
  static final String SCHEME = "bearer";

  /** A card's description and a skill's are bounded: instructions may be long. */
  static final int DESCRIPTION_LIMIT = 1000;

  private static final String TEXT = "text/plain";
  private static final String WHAT =
      "Answers questions directly and does real work (commands, file changes) in a sandboxed"
          + " computer. Each message is a task in a Threadline thread: send the contextId of an"
          + " earlier task to follow up in the same conversation.";

  private AgentCards() {}

  /** The card of {@code agent} served at {@code endpointUrl}. */
  static AgentCard of(AgentView agent, String endpointUrl) {
    String instructions = agent.instructions();
    String description =
        instructions == null || instructions.isBlank()
            ? "A Threadline agent (" + agent.provider() + " " + agent.model() + "). " + WHAT
            : bounded(instructions.strip());
    AgentSkill skill =
        new AgentSkill.Builder()
            .id(agent.id())
            .name(agent.name())
            .description(description)
            .tags(tags("threadline", agent.provider(), agent.model()))
            .inputModes(List.of(TEXT))
            .outputModes(List.of(TEXT))
            .build();
    return card(agent.name(), description, endpointUrl, skill);
  }

  /** The card of threads without an agent, served at {@code endpointUrl}. */
  static AgentCard server(String endpointUrl) {
    AgentSkill skill =
        new AgentSkill.Builder()
            .id("threadline-task")
            .name("Task")
            .description(WHAT)
            .tags(List.of("threadline", "conversation", "computer"))
            .examples(
                List.of(
                    "What is a Kubernetes operator?",
                    "Create notes.txt with `echo hello > notes.txt`"))
            .inputModes(List.of(TEXT))
            .outputModes(List.of(TEXT))
            .build();
    return card("Threadline", "Threadline's default agent. " + WHAT, endpointUrl, skill);
  }

  private static AgentCard card(
      String name, String description, String endpointUrl, AgentSkill skill) {
    return new AgentCard.Builder()
        .name(name)
        .description(description)
        .url(endpointUrl)
        .preferredTransport(TransportProtocol.JSONRPC.asString())
        .protocolVersion(A2aPaths.PROTOCOL_VERSION)
        .version("1")
        .provider(new AgentProvider("Threadline", endpointUrl))
        .capabilities(
            new AgentCapabilities.Builder()
                .streaming(true)
                .pushNotifications(false)
                .stateTransitionHistory(false)
                .build())
        .defaultInputModes(List.of(TEXT))
        .defaultOutputModes(List.of(TEXT))
        .skills(List.of(skill))
        .securitySchemes(
            Map.of(
                SCHEME,
                new HTTPAuthSecurityScheme.Builder()
                    .scheme("bearer")
                    .bearerFormat("Threadline API key")
                    .description("A Threadline API key: Authorization: Bearer <key>")
                    .build()))
        .security(List.of(Map.of(SCHEME, List.of())))
        .supportsAuthenticatedExtendedCard(false)
        .build();
  }

  private static List<String> tags(String... values) {
    List<String> tags = new ArrayList<>();
    for (String value : values) {
      if (value != null && !value.isBlank()) {
        tags.add(value);
      }
    }
    return tags;
  }

  private static String bounded(String text) {
    return text.length() <= DESCRIPTION_LIMIT
        ? text
        : text.substring(0, DESCRIPTION_LIMIT - 1) + "…";
  }
}
