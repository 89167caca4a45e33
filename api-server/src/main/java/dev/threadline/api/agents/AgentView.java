package dev.threadline.api.agents;

/**
 * An agent as REST clients see it. All fields are always present; {@code instructions} is null
 * when there are none. Times are ISO 8601 UTC with {@code Z}.
 */
public record AgentView(
    String id,
    String userId,
    String name,
    String provider,
    String model,
    String instructions,
    String createdAt,
    String updatedAt) {}
