package dev.threadline.api.threads;

/** An item of {@code GET /v1/threads}: the contract's subset of a thread. */
public record ThreadSummary(
    String id,
    String title,
    String status,
    long messageCount,
    double totalCost,
    String createdAt) {}
