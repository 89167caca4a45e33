package dev.threadline.api.schedules;

import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;

/**
 * The schedule of {@code POST /v1/threads} (messages and a schedule), with what it inherits from
 * the thread: its task (the first message), agent, environment and appId. Not yet validated.
 *
 * @param type {@code one-time} or {@code recurring}
 * @param webhooks as {@code webhooks} of {@code POST /v1/schedules}; null when not given
 */
public record ThreadScheduleRequest(
    String type,
    String name,
    String cronExpression,
    String timezone,
    String scheduledTime,
    String task,
    String agentId,
    String environmentId,
    String appId,
    List<WebhookInput> webhooks) {}
