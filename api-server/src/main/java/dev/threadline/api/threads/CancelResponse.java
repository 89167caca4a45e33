package dev.threadline.api.threads;

/** {@code {success, threadId, message}} of {@code POST /v1/threads/:threadId/cancel}. */
public record CancelResponse(boolean success, String threadId, String message) {}
