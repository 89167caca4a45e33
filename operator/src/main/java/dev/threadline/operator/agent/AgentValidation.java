package dev.threadline.operator.agent;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.agent.AgentSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What makes an Agent usable. The schema checks shapes; this checks meaning. */
public final class AgentValidation {
  static final Set<String> PROVIDERS = Set.of("scripted", "openai", "anthropic");

  private AgentValidation() {}

  /**
   * Problems with the spec, each naming its field; empty when the agent is usable. A model without
   * a price in {@code pricing} is one: its runs would be counted as free.
   */
  public static List<String> problems(AgentSpec spec, ModelPricing pricing) {
    List<String> problems = new ArrayList<>();
    if (spec == null) {
      problems.add("spec is required");
      return problems;
    }
    if (spec.getModel() == null || spec.getModel().isBlank()) {
      problems.add("spec.model is required");
    }
    String provider = spec.getProvider() == null ? "scripted" : spec.getProvider();
    if (!PROVIDERS.contains(provider)) {
      problems.add(
          "spec.provider must be one of scripted, openai, anthropic (got \"" + provider + "\")");
    }
    if (PROVIDERS.contains(provider)
        && spec.getModel() != null
        && !pricing.isPriced(provider, spec.getModel())) {
      problems.add("spec.model has no known price (THREADLINE_MODEL_PRICES)");
    }
    return problems;
  }
}
