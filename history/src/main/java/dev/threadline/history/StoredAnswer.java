package dev.threadline.history;

/**
 * A person's answer to a call a run waited on: a {@code decision} (approve or deny, with a {@code
 * message} told to the model on a denial) for an approval, or the {@code answer} to a question.
 *
 * @param run the Run's name
 * @param answeredAt when it was first recorded (RFC 3339, UTC)
 */
public record StoredAnswer(
    String run, String callId, String decision, String message, String answer, String answeredAt) {}
