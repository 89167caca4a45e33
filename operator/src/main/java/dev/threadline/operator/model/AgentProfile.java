package dev.threadline.operator.model;

import dev.threadline.crds.agent.ApprovalPolicy;

/**
 * The agent a run answers as: which provider and model, with which instructions; {@code approvals}
 * is its approval policy, null when it has none.
 */
public record AgentProfile(
    String provider, String model, String instructions, ApprovalPolicy approvals) {

  /** An agent without an approval policy. */
  public AgentProfile(String provider, String model, String instructions) {
    this(provider, model, instructions, null);
  }
}
