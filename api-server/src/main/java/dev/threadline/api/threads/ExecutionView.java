package dev.threadline.api.threads;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The contract's non-streaming execution result. {@code error} (beyond the contract) says why a
 * failed execution failed, with the stream's error codes; absent on success.
 */
public record ExecutionView(
    boolean success,
    String response,
    List<String> actions,
    long durationMs,
    Usage usage,
    @JsonInclude(JsonInclude.Include.NON_NULL) Error error) {

  public record Usage(long inputTokens, long outputTokens) {}

  public record Error(String code, String message) {}
}
