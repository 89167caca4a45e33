package dev.threadline.telemetry;

import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringArrayKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The OpenTelemetry semantic conventions for generative AI that Threadline's spans follow (span
 * names, operations and attribute names), plus {@code error.type}. Prompts, replies, tool arguments
 * and results are never recorded (the conventions' opt-in content attributes are not used).
 */
public final class GenAi {
  public static final String INVOKE_AGENT = "invoke_agent";
  public static final String CHAT = "chat";
  public static final String EXECUTE_TOOL = "execute_tool";

  public static final AttributeKey<String> OPERATION_NAME = stringKey("gen_ai.operation.name");
  public static final AttributeKey<String> PROVIDER_NAME = stringKey("gen_ai.provider.name");
  public static final AttributeKey<String> REQUEST_MODEL = stringKey("gen_ai.request.model");
  public static final AttributeKey<Long> REQUEST_MAX_TOKENS = longKey("gen_ai.request.max_tokens");
  public static final AttributeKey<Long> USAGE_INPUT_TOKENS = longKey("gen_ai.usage.input_tokens");
  public static final AttributeKey<Long> USAGE_OUTPUT_TOKENS =
      longKey("gen_ai.usage.output_tokens");
  public static final AttributeKey<List<String>> RESPONSE_FINISH_REASONS =
      stringArrayKey("gen_ai.response.finish_reasons");
  public static final AttributeKey<String> CONVERSATION_ID = stringKey("gen_ai.conversation.id");
  public static final AttributeKey<String> AGENT_NAME = stringKey("gen_ai.agent.name");
  public static final AttributeKey<String> TOOL_NAME = stringKey("gen_ai.tool.name");
  public static final AttributeKey<String> TOOL_CALL_ID = stringKey("gen_ai.tool.call.id");
  public static final AttributeKey<String> TOOL_TYPE = stringKey("gen_ai.tool.type");
  public static final AttributeKey<String> ERROR_TYPE = stringKey("error.type");

  private GenAi() {}

  /** The conventions' span name: the operation, then what it acts on when known. */
  public static String spanName(String operation, String target) {
    return target == null || target.isBlank() ? operation : operation + " " + target;
  }
}
