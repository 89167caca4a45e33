package dev.threadline.api.threads;

import java.util.List;

/**
 * The contract's thread log response; {@code duration} is the runs' total in milliseconds, as text.
 */
public record ThreadLogResponse(
    List<LogEntry> logs,
    String threadId,
    String status,
    String duration,
    double totalCost,
    long inputTokens,
    long outputTokens) {}
