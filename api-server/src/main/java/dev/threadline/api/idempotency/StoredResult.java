package dev.threadline.api.idempotency;

/**
 * What the first request produced, enough to answer a repeat with the same result: a small JSON
 * response as it was sent, or the run it started (a repeat joins that run instead of starting
 * another).
 */
public sealed interface StoredResult permits StoredResult.Json, StoredResult.StartedRun {
  /** A JSON response: status, {@code Location} header (may be null) and body. */
  record Json(int status, String location, String body) implements StoredResult {}

  /** A run that was started: its namespace and Kubernetes name. */
  record StartedRun(String namespace, String runName) implements StoredResult {}
}
