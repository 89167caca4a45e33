package dev.threadline.api.schedules;

import dev.threadline.api.webhooks.WebhookView;
import java.util.List;
import java.util.Map;

/**
 * A schedule as REST clients see it. Every field is present; those that do not apply are null
 * ({@code cronExpression} of a one-time schedule, {@code scheduledTime} of a recurring one, {@code
 * nextRunAt} of a disabled one). Times are ISO 8601 UTC with {@code Z}.
 *
 * @param enabled whether it will fire: {@code spec.enabled}, and false for a one-time schedule that
 *     has already run
 * @param webhooks beyond the contract; a signing secret shows only in the answer to the write that
 *     generated it
 */
public record ScheduleView(
    String id,
    String userId,
    String name,
    String description,
    String task,
    String agentId,
    String environmentId,
    String scheduleType,
    String cronExpression,
    String scheduledTime,
    String timezone,
    boolean enabled,
    String nextRunAt,
    String lastRunAt,
    long runCount,
    long successCount,
    long failureCount,
    double totalCost,
    String appId,
    Map<String, Object> metadata,
    String createdAt,
    String updatedAt,
    List<WebhookView> webhooks) {}
