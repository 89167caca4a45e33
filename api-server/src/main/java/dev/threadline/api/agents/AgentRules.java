package dev.threadline.api.agents;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.agent.AgentSpec;

/**
 * Field rules for agents, the same as the CRD's schema ({@code AgentSpec}) so that a bad value is a
 * 400 naming the field here rather than an opaque rejection by the Kubernetes API.
 */
final class AgentRules {
  static final int MAX_NAME = 200;
  static final int MAX_MODEL = 200;
  static final int MAX_INSTRUCTIONS = 65536;

  private AgentRules() {}

  static String requiredText(String field, String value, int max) {
    if (value == null) {
      throw ApiException.badRequest(field, "is required");
    }
    return text(field, value, max);
  }

  /** A non-blank string of at most {@code max} characters, stripped. */
  static String text(String field, String value, int max) {
    String stripped = value.strip();
    if (stripped.isEmpty()) {
      throw ApiException.badRequest(field, "must not be blank");
    }
    return bounded(field, stripped, max);
  }

  /** Instructions may be empty (meaning none) but not longer than the CRD allows. */
  static String instructions(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    return bounded("instructions", value, MAX_INSTRUCTIONS);
  }

  /**
   * A run on a model without a price would be counted as free, so an agent may only name a model
   * the operator can bill (its own price or the default one); a scripted agent costs nothing.
   */
  static void requirePriced(ModelPricing pricing, AgentSpec spec) {
    if (!pricing.isPriced(spec.getProvider(), spec.getModel())) {
      throw ApiException.badRequest(
          "model",
          "has no known price: configure one (or a default '*' price) in THREADLINE_MODEL_PRICES");
    }
  }

  private static String bounded(String field, String value, int max) {
    if (value.length() > max) {
      throw ApiException.badRequest(field, "must be at most " + max + " characters");
    }
    return value;
  }
}
