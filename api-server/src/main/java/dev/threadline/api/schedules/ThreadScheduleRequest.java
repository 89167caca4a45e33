package dev.threadline.api.schedules;

/**
 * The schedule of {@code POST /v1/threads} (messages and a schedule), with what it inherits from
 * the thread: its task (the first message), agent, environment and appId. Not yet validated.
 *
 * @param type {@code one-time} or {@code recurring}
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
    String appId) {}
