package dev.threadline.api.threads;

/** The schedule in {@code {thread, schedule}}: the fields the contract names there. */
public record ScheduleSummary(
    String id, String name, String scheduleType, String cronExpression, boolean enabled) {}
