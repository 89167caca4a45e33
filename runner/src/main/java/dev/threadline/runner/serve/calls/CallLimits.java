package dev.threadline.runner.serve.calls;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.runner.serve.FileApiException;
import java.time.Duration;

/**
 * A call's limits, from its {@code limits} object; absent ones take the runner's defaults.
 *
 * @param timeout how long a command may run before its process tree is killed
 * @param outputLimitBytes the most output (or file text) the result keeps
 */
public record CallLimits(Duration timeout, int outputLimitBytes) {
  static final int DEFAULT_TIMEOUT_SECONDS = 300;
  static final int MAX_TIMEOUT_SECONDS = 24 * 3600;
  static final int DEFAULT_OUTPUT_LIMIT_BYTES = 64 * 1024;
  static final int MAX_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;

  static CallLimits of(JsonNode call) {
    JsonNode limits = call.get("limits");
    if (limits != null && !limits.isNull() && !limits.isObject()) {
      throw FileApiException.badRequest("limits must be an object");
    }
    JsonNode given =
        limits == null || limits.isNull()
            ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
            : limits;
    int timeout = number(given, "timeoutSeconds", DEFAULT_TIMEOUT_SECONDS, 1, MAX_TIMEOUT_SECONDS);
    int output =
        number(given, "outputLimitBytes", DEFAULT_OUTPUT_LIMIT_BYTES, 2, MAX_OUTPUT_LIMIT_BYTES);
    return new CallLimits(Duration.ofSeconds(timeout), output);
  }

  private static int number(JsonNode limits, String field, int fallback, int min, int max) {
    JsonNode value = limits.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.canConvertToInt()
        || !value.isIntegralNumber()
        || value.asInt() < min
        || value.asInt() > max) {
      throw FileApiException.badRequest(
          "limits." + field + " must be a whole number from " + min + " to " + max);
    }
    return value.asInt();
  }
}
