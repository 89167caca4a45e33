package dev.threadline.api.threads;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A message of a thread. User messages carry {@code threadId}; assistant messages carry {@code
 * durationMs}, {@code inputTokens} and {@code outputTokens}; absent fields are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MessageView(
    String id,
    String threadId,
    String role,
    String content,
    Long durationMs,
    Long inputTokens,
    Long outputTokens,
    String createdAt) {}
