package dev.threadline.api.threads;

import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;

/**
 * The {@code schedule} object of {@code POST /v1/threads}, as given (not yet validated; that is the
 * {@link ScheduleCreator}'s job), with the task it should run.
 *
 * @param type {@code one-time} or {@code recurring}
 * @param scheduledTime ISO timestamp of a one-time schedule
 * @param task the text of the thread's first message
 * @param webhooks the schedule's webhooks (beyond the contract); null when not given
 */
public record ScheduleRequest(
    String type,
    String name,
    String cronExpression,
    String timezone,
    String scheduledTime,
    String task,
    List<WebhookInput> webhooks) {}
