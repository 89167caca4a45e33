package dev.threadline.api.agents;

import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.agent.ApprovalPolicy;

/**
 * A validated PATCH: the fields to set, null for "leave as is". {@code clearInstructions} records
 * an empty {@code instructions}, which removes them; {@code clearApprovals} a {@code null} {@code
 * approvals}, which removes the policy.
 */
record AgentSpecChange(
    String displayName,
    String provider,
    String model,
    String instructions,
    boolean clearInstructions,
    ApprovalPolicy approvals,
    boolean clearApprovals) {

  static AgentSpecChange of(AgentRequests.Update request) {
    String displayName =
        request.name() == null
            ? null
            : AgentRules.text("name", request.name(), AgentRules.MAX_NAME);
    String provider =
        request.provider() == null
            ? null
            : AgentProvider.parse("provider", request.provider()).wireName();
    String model =
        request.model() == null
            ? null
            : AgentRules.text("model", request.model(), AgentRules.MAX_MODEL);
    String instructions = AgentRules.instructions(request.instructions());
    boolean clear = request.instructions() != null && instructions == null;
    boolean clearApprovals = request.approvals() != null && request.approvals().isNull();
    ApprovalPolicy approvals =
        request.approvals() == null || clearApprovals
            ? null
            : ApprovalPolicyRules.parse(request.approvals());
    return new AgentSpecChange(
        displayName, provider, model, instructions, clear, approvals, clearApprovals);
  }

  boolean isEmpty() {
    return displayName == null
        && provider == null
        && model == null
        && instructions == null
        && !clearInstructions
        && approvals == null
        && !clearApprovals;
  }

  /** Whether the model that runs may change, so that its price must be checked again. */
  boolean changesModel() {
    return provider != null || model != null;
  }

  void applyTo(AgentSpec spec) {
    if (displayName != null) {
      spec.setDisplayName(displayName);
    }
    if (provider != null) {
      spec.setProvider(provider);
    }
    if (model != null) {
      spec.setModel(model);
    }
    if (instructions != null || clearInstructions) {
      spec.setInstructions(instructions);
    }
    if (approvals != null || clearApprovals) {
      spec.setApprovals(approvals);
    }
  }
}
