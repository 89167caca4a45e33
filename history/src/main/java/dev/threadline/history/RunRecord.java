package dev.threadline.history;

/**
 * A run's conversation content: the user's whole message and, once answered, the whole answer; once
 * the Run left the Kubernetes API, the object as it was (its JSON), from which the API keeps
 * serving it.
 *
 * @param sequence the run's place in its thread (from 1)
 * @param createdAt when the run was created (RFC 3339, UTC)
 * @param response the whole answer, or null
 * @param archived the Run's JSON once it left the API, or null while it is there
 */
public record RunRecord(
    RunKey key,
    long sequence,
    String message,
    String createdAt,
    String response,
    String archived) {}
