package dev.threadline.api.agents;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.crds.agent.ApprovalRule;
import java.util.List;
import java.util.Objects;

/** An agent's approval policy as REST clients see it (the shape a request gives it). */
public record ApprovalPolicyView(
    @JsonProperty("default") String defaultAction,
    List<Rule> tools,
    List<Rule> commands,
    boolean askUser) {

  public record Rule(String match, String action) {}

  /** Null for an agent without a policy. */
  static ApprovalPolicyView of(ApprovalPolicy policy) {
    if (policy == null) {
      return null;
    }
    return new ApprovalPolicyView(
        Objects.requireNonNullElse(policy.getDefaultAction(), ApprovalPolicy.ALLOW),
        rules(policy.getTools()),
        rules(policy.getCommands()),
        Boolean.TRUE.equals(policy.getAskUser()));
  }

  private static List<Rule> rules(List<ApprovalRule> rules) {
    return rules == null
        ? List.of()
        : rules.stream()
            .filter(Objects::nonNull)
            .map(rule -> new Rule(rule.getMatch(), rule.getAction()))
            .toList();
  }
}
