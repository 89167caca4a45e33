package dev.threadline.models.anthropic;

import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageParam;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlockParam;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.Role;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Maps a {@link ModelRequest} to a Messages API request. The Messages API has two roles: tool
 * results travel as {@code tool_result} blocks of a user message, so consecutive tool results (and
 * a user message right after them) are grouped into one user message, tool results first, as the
 * API requires.
 */
final class AnthropicRequests {

  /** The API rejects empty text blocks and empty messages. */
  private static final String NO_CONTENT = "(no content)";

  private static final TypeReference<List<String>> REQUIRED = new TypeReference<>() {};

  private AnthropicRequests() {}

  static MessageCreateParams toParams(ModelRequest request) {
    MessageCreateParams.Builder params =
        MessageCreateParams.builder().model(request.model()).maxTokens(request.maxOutputTokens());
    if (request.instructionsOrNull() != null) {
      params.system(request.instructions());
    }
    params.messages(messages(request.messages()));
    for (ToolDefinition tool : request.tools()) {
      params.addTool(tool(tool));
    }
    return params.build();
  }

  static List<MessageParam> messages(List<ChatMessage> messages) {
    List<MessageParam> result = new ArrayList<>();
    Turn turn = null;
    for (ChatMessage message : messages) {
      boolean fromUser = message.role() != Role.ASSISTANT;
      if (turn == null || turn.fromUser != fromUser) {
        if (turn != null) {
          result.add(turn.toParam());
        }
        turn = new Turn(fromUser);
      }
      turn.add(message);
    }
    if (turn != null) {
      result.add(turn.toParam());
    }
    return result;
  }

  /**
   * The blocks of one Messages API message, gathered from consecutive messages of the same side.
   */
  private static final class Turn {
    private final boolean fromUser;
    private final List<ContentBlockParam> toolResults = new ArrayList<>();
    private final List<ContentBlockParam> blocks = new ArrayList<>();

    Turn(boolean fromUser) {
      this.fromUser = fromUser;
    }

    void add(ChatMessage message) {
      switch (message.role()) {
        case TOOL ->
            toolResults.add(
                ContentBlockParam.ofToolResult(
                    ToolResultBlockParam.builder()
                        .toolUseId(message.toolCallId())
                        .content(message.content().isEmpty() ? NO_CONTENT : message.content())
                        .build()));
        case USER -> addText(message.content());
        case ASSISTANT -> {
          addText(message.content());
          for (ToolCall call : message.toolCalls()) {
            blocks.add(ContentBlockParam.ofToolUse(toolUse(call)));
          }
        }
      }
    }

    private void addText(String text) {
      if (!text.isBlank()) {
        blocks.add(ContentBlockParam.ofText(text));
      }
    }

    MessageParam toParam() {
      List<ContentBlockParam> content = new ArrayList<>(toolResults);
      content.addAll(blocks);
      if (content.isEmpty()) {
        content.add(ContentBlockParam.ofText(NO_CONTENT));
      }
      return fromUser
          ? MessageParam.ofUserOfContentBlockParams(content)
          : MessageParam.ofAssistantOfContentBlockParams(content);
    }
  }

  private static ToolUseBlockParam toolUse(ToolCall call) {
    ToolUseBlockParam.Input.Builder input = ToolUseBlockParam.Input.builder();
    Map<String, Object> arguments;
    try {
      arguments = call.arguments();
    } catch (IllegalArgumentException malformed) {
      // The API needs an object; keep what the model wrote so the history stays truthful.
      arguments = Map.of("_raw_arguments", call.argumentsJson());
    }
    arguments.forEach((name, value) -> input.putAdditionalProperty(name, JsonValue.from(value)));
    return ToolUseBlockParam.builder().id(call.id()).name(call.name()).input(input.build()).build();
  }

  private static Tool.InputSchema.Properties properties(Object value) {
    Tool.InputSchema.Properties.Builder properties = Tool.InputSchema.Properties.builder();
    if (value instanceof Map<?, ?> map) {
      map.forEach((name, schema) ->
          properties.putAdditionalProperty(String.valueOf(name), JsonValue.from(schema)));
    }
    return properties.build();
  }

  private static Tool tool(ToolDefinition tool) {
    Tool.InputSchema.Builder schema = Tool.InputSchema.builder();
    for (Map.Entry<String, Object> entry : tool.parametersJsonSchema().entrySet()) {
      // The SDK models "type", "properties" and "required" as fields; additional properties with
      // the same names would be written twice, so route those through their setters.
      switch (entry.getKey()) {
        case "type" -> schema.type(JsonValue.from(entry.getValue()));
        case "properties" -> schema.properties(properties(entry.getValue()));
        case "required" -> schema.required(JsonValue.from(entry.getValue()).convert(REQUIRED));
        default -> schema.putAdditionalProperty(entry.getKey(), JsonValue.from(entry.getValue()));
      }
    }
    Tool.Builder builder = Tool.builder().name(tool.name()).inputSchema(schema.build());
    if (!tool.description().isEmpty()) {
      builder.description(tool.description());
    }
    return builder.build();
  }
}
