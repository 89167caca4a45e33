package dev.threadline.operator.tracing;

import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.StopReason;
import dev.threadline.telemetry.GenAi;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import java.util.List;

/**
 * What a {@code chat} span says about one model call, in the GenAI conventions' terms: the request
 * (provider, model, output budget) and the reply (token usage, finish reason). Never the messages,
 * instructions, tool arguments or the reply's text.
 */
final class ChatAttributes {
  private ChatAttributes() {}

  static Attributes request(String provider, ModelRequest request, String conversationId) {
    AttributesBuilder attributes =
        Attributes.builder()
            .put(GenAi.OPERATION_NAME, GenAi.CHAT)
            .put(GenAi.PROVIDER_NAME, provider)
            .put(GenAi.REQUEST_MODEL, request.model())
            .put(GenAi.REQUEST_MAX_TOKENS, (long) request.maxOutputTokens());
    if (conversationId != null) {
      attributes.put(GenAi.CONVERSATION_ID, conversationId);
    }
    return attributes.build();
  }

  static Attributes reply(ModelReply reply) {
    return Attributes.builder()
        .put(GenAi.USAGE_INPUT_TOKENS, reply.usage().inputTokens())
        .put(GenAi.USAGE_OUTPUT_TOKENS, reply.usage().outputTokens())
        .put(GenAi.RESPONSE_FINISH_REASONS, List.of(finishReason(reply.stopReason())))
        .build();
  }

  /** The conventions' (and OpenAI's) finish reasons. */
  static String finishReason(StopReason reason) {
    return switch (reason) {
      case END_TURN -> "stop";
      case TOOL_USE -> "tool_calls";
      case MAX_TOKENS -> "length";
      case OTHER -> "other";
    };
  }

  /**
   * {@code error.type} of a failed call: the model's error code when it gave one (e.g. {@code
   * rate_limited}), else the exception's class. Never its message, which may quote a request.
   */
  static String errorType(Exception failure) {
    if (failure instanceof ModelException model) {
      ModelErrorCode code = model.code();
      return code == null ? ModelException.class.getName() : code.code();
    }
    return failure.getClass().getName();
  }
}
