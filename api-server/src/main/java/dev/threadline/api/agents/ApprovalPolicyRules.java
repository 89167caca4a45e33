package dev.threadline.api.agents;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.crds.agent.ApprovalRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads an agent's {@code approvals} from a request body, with the CRD's bounds ({@link
 * ApprovalPolicy}), so that a bad value is a 400 naming the field: {@code {default?, tools?:
 * [{match, action}], commands?: [{match, action}], askUser?}}.
 */
final class ApprovalPolicyRules {
  private static final Set<String> ACTIONS = Set.of(ApprovalPolicy.ALLOW, ApprovalPolicy.ASK);
  private static final Set<String> FIELDS = Set.of("default", "tools", "commands", "askUser");

  private ApprovalPolicyRules() {}

  /** The policy the JSON describes; {@code approvals} is an object. */
  static ApprovalPolicy parse(JsonNode approvals) {
    if (!approvals.isObject()) {
      throw ApiException.badRequest("approvals", "must be an object");
    }
    for (Map.Entry<String, JsonNode> field : approvals.properties()) {
      if (!FIELDS.contains(field.getKey())) {
        throw ApiException.badRequest(
            "approvals." + field.getKey(),
            "is not a field of approvals (default, tools, commands, askUser)");
      }
    }
    ApprovalPolicy policy = new ApprovalPolicy();
    JsonNode defaultAction = approvals.path("default");
    if (!defaultAction.isMissingNode() && !defaultAction.isNull()) {
      policy.setDefaultAction(action("approvals.default", defaultAction));
    }
    policy.setTools(rules("approvals.tools", approvals.path("tools")));
    policy.setCommands(rules("approvals.commands", approvals.path("commands")));
    JsonNode askUser = approvals.path("askUser");
    if (!askUser.isMissingNode() && !askUser.isNull()) {
      if (!askUser.isBoolean()) {
        throw ApiException.badRequest("approvals.askUser", "must be a boolean");
      }
      policy.setAskUser(askUser.booleanValue());
    }
    return policy;
  }

  private static List<ApprovalRule> rules(String field, JsonNode rules) {
    List<ApprovalRule> parsed = new ArrayList<>();
    if (rules.isMissingNode() || rules.isNull()) {
      return parsed;
    }
    if (!rules.isArray()) {
      throw ApiException.badRequest(field, "must be an array of {match, action}");
    }
    if (rules.size() > ApprovalPolicy.MAX_RULES) {
      throw ApiException.badRequest(
          field, "must have at most " + ApprovalPolicy.MAX_RULES + " rules");
    }
    for (int i = 0; i < rules.size(); i++) {
      String at = field + "[" + i + "]";
      JsonNode rule = rules.get(i);
      if (!rule.isObject()) {
        throw ApiException.badRequest(at, "must be an object {match, action}");
      }
      JsonNode match = rule.path("match");
      if (!match.isString() || match.stringValue().isEmpty()) {
        throw ApiException.badRequest(at + ".match", "is required: a non-empty glob");
      }
      if (match.stringValue().length() > ApprovalRule.MAX_MATCH) {
        throw ApiException.badRequest(
            at + ".match", "must be at most " + ApprovalRule.MAX_MATCH + " characters");
      }
      parsed.add(
          new ApprovalRule(match.stringValue(), action(at + ".action", rule.path("action"))));
    }
    return parsed;
  }

  private static String action(String field, JsonNode value) {
    if (!value.isString() || !ACTIONS.contains(value.stringValue())) {
      throw ApiException.badRequest(field, "must be allow or ask");
    }
    return value.stringValue();
  }
}
