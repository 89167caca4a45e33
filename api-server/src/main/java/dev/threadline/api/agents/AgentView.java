package dev.threadline.api.agents;

import dev.threadline.api.webhooks.WebhookView;
import java.util.List;

/**
 * An agent as REST clients see it. All fields are always present; {@code instructions} is null when
 * there are none. Times are ISO 8601 UTC with {@code Z}. {@code webhooks} (beyond the contract) is
 * empty when there are none; a secret shows only in the answer to the write that generated it.
 * {@code approvals} (beyond the contract) is null when the agent has no approval policy.
 */
public record AgentView(
    String id,
    String userId,
    String name,
    String provider,
    String model,
    String instructions,
    String createdAt,
    String updatedAt,
    List<WebhookView> webhooks,
    ApprovalPolicyView approvals) {}
