package dev.threadline.operator.worker;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.Role;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import java.util.List;
import java.util.Map;

/**
 * A scripted model for one tool: it calls {@code tool} with {@code arguments} when that tool is
 * offered, then ends its turn quoting the result it read; without the tool it says so.
 */
final class OneToolCallModel implements ModelProvider {
  private final String tool;
  private final Map<String, Object> arguments;

  OneToolCallModel(String tool, Map<String, Object> arguments) {
    this.tool = tool;
    this.arguments = Map.copyOf(arguments);
  }

  @Override
  public String name() {
    return "scripted";
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    Usage usage = new Usage(10, 5, 0);
    ChatMessage last = request.messages().get(request.messages().size() - 1);
    if (last.role() == Role.TOOL) {
      return new ModelReply(
          "The tool said: " + last.content(), List.of(), usage, StopReason.END_TURN);
    }
    if (request.tools().stream().noneMatch(definition -> definition.name().equals(tool))) {
      return new ModelReply("I have no tool " + tool, List.of(), usage, StopReason.END_TURN);
    }
    return new ModelReply(
        "", List.of(ToolCall.of("call-1", tool, arguments)), usage, StopReason.TOOL_USE);
  }

  @Override
  public void close() {}
}
