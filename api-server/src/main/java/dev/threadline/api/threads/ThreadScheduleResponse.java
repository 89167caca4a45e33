package dev.threadline.api.threads;

/** {@code {thread, schedule}}: a thread created with a schedule that will run its task. */
public record ThreadScheduleResponse(ThreadView thread, ScheduleSummary schedule) {}
