package dev.threadline.api.threads;

/**
 * The answer a call got, as recorded: {@code decision} and {@code message} for an approval, {@code
 * answer} for a question (the others null). Posting it again returns the same.
 */
record ApprovalView(
    String threadId,
    String runId,
    String callId,
    String decision,
    String message,
    String answer,
    String answeredAt) {}
