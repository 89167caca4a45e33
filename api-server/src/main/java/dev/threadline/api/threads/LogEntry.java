package dev.threadline.api.threads;

/**
 * A line of the thread log: {@code time} is the clock time (UTC, {@code HH:mm:ss}), {@code type}
 * its level ({@code info}, {@code warning}, {@code error}), {@code eventType} what happened ({@code
 * user_message}, {@code run_started}, {@code agent_message}, {@code tool_call}...).
 */
public record LogEntry(String time, String message, String type, String eventType) {}
