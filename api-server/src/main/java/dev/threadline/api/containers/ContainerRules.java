package dev.threadline.api.containers;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.container.ContainerSpec;
import java.util.Set;

/** Field checks of the container bodies; every refusal is a 400 that names the field. */
final class ContainerRules {
  static final int MAX_MODEL = 200;

  /** Reasoning efforts the model providers know. */
  static final Set<String> REASONING = Set.of("minimal", "low", "medium", "high");

  private ContainerRules() {}

  static long timeout(Long timeout) {
    if (timeout == null) {
      return ContainerSpec.DEFAULT_TIMEOUT_MS;
    }
    if (timeout < ContainerSpec.MIN_TIMEOUT_MS || timeout > ContainerSpec.MAX_TIMEOUT_MS) {
      throw ApiException.badRequest(
          "timeout",
          "must be between "
              + ContainerSpec.MIN_TIMEOUT_MS
              + " and "
              + ContainerSpec.MAX_TIMEOUT_MS
              + " milliseconds");
    }
    return timeout;
  }

  static String model(String model) {
    return model == null ? null : text("model", model, MAX_MODEL, true);
  }

  static String reasoning(String reasoning) {
    if (reasoning == null) {
      return null;
    }
    if (!REASONING.contains(reasoning)) {
      throw ApiException.badRequest("reasoning", "must be one of minimal, low, medium, high");
    }
    return reasoning;
  }

  static String text(String field, String value, int max, boolean required) {
    if (value == null || value.isBlank()) {
      if (required) {
        throw ApiException.badRequest(field, "is required");
      }
      return null;
    }
    String text = value.strip();
    if (text.length() > max) {
      throw ApiException.badRequest(field, "may have at most " + max + " characters");
    }
    return text;
  }
}
