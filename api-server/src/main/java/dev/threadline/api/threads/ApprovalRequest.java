package dev.threadline.api.threads;

/**
 * {@code POST /v1/threads/:threadId/approvals}: {@code callId} and either {@code decision} ({@code
 * approve} or {@code deny}, with an optional {@code message} told to the model with a denial) for
 * an approval, or {@code answer} for a question. Unknown fields are ignored.
 */
record ApprovalRequest(String callId, String decision, String message, String answer) {}
