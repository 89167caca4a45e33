package dev.threadline.api.threads;

import tools.jackson.databind.JsonNode;

/**
 * A thread as REST clients see it. Every field is present; {@code environmentId}, {@code agentId},
 * {@code title} and {@code appId} are null when unset, {@code metadata} is {@code {}}. Times are
 * ISO 8601 UTC with {@code Z}.
 */
public record ThreadView(
    String id,
    String userId,
    String environmentId,
    String agentId,
    String title,
    String status,
    long messageCount,
    long inputTokens,
    long outputTokens,
    double totalCost,
    String appId,
    JsonNode metadata,
    String createdAt,
    String updatedAt) {

  /** The abbreviated form a thread list holds. */
  public ThreadSummary summary() {
    return new ThreadSummary(id, title, status, messageCount, totalCost, createdAt);
  }
}
