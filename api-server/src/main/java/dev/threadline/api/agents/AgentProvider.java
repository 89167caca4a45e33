package dev.threadline.api.agents;

import dev.threadline.api.errors.ApiException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Who answers for an agent; the wire names are those of {@code AgentSpec.provider}. */
enum AgentProvider {
  SCRIPTED("scripted"),
  OPENAI("openai"),
  ANTHROPIC("anthropic");

  static final AgentProvider DEFAULT = SCRIPTED;

  private final String wireName;

  AgentProvider(String wireName) {
    this.wireName = wireName;
  }

  String wireName() {
    return wireName;
  }

  /** The provider a request names; 400 naming the field and the choices otherwise. */
  static AgentProvider parse(String field, String value) {
    return Arrays.stream(values())
        .filter(provider -> provider.wireName.equals(value))
        .findFirst()
        .orElseThrow(() -> ApiException.badRequest(field, "must be one of " + choices()));
  }

  private static String choices() {
    return Arrays.stream(values()).map(AgentProvider::wireName).collect(Collectors.joining(", "));
  }
}
