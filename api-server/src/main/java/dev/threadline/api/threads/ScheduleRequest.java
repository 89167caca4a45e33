package dev.threadline.api.threads;

/**
 * The {@code schedule} object of {@code POST /v1/threads}, as given (not yet validated; that is
 * the {@link ScheduleCreator}'s job), with the task it should run.
 *
 * @param type {@code one-time} or {@code recurring}
 * @param scheduledTime ISO timestamp of a one-time schedule
 * @param task the text of the thread's first message
 */
public record ScheduleRequest(
    String type, String name, String cronExpression, String timezone, String scheduledTime, String task) {}
