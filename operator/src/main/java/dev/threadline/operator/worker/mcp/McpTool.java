package dev.threadline.operator.worker.mcp;

import dev.threadline.models.ToolDefinition;
import dev.threadline.operator.worker.SandboxToolResult;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One tool of an MCP server, offered to the model as {@code mcp__<server>__<tool>} with the
 * definition the runner gave it; its calls are recorded as {@code mcp_tool} tool calls.
 */
public final class McpTool {
  public static final String TYPE = "mcp_tool";
  private static final int MAX_NAME = 64;

  private final String server;
  private final McpSchema.Tool tool;
  private final McpSyncClient client;
  private final int outputLimitBytes;
  private final ToolDefinition definition;

  McpTool(String server, McpSchema.Tool tool, McpSyncClient client, int outputLimitBytes) {
    this.server = server;
    this.tool = tool;
    this.client = client;
    this.outputLimitBytes = outputLimitBytes;
    String description =
        "[MCP server "
            + server
            + "] "
            + (tool.description() == null ? tool.name() : tool.description());
    Map<String, Object> schema =
        tool.inputSchema() == null || tool.inputSchema().isEmpty()
            ? Map.of("type", "object", "properties", Map.of())
            : tool.inputSchema();
    this.definition = new ToolDefinition(exposedName(server, tool.name()), description, schema);
  }

  /** Model APIs accept {@code [A-Za-z0-9_-]{1,64}} as a tool name. */
  static String exposedName(String server, String tool) {
    String name = "mcp__" + server + "__" + tool.replaceAll("[^A-Za-z0-9_-]", "_");
    return name.length() <= MAX_NAME ? name : name.substring(0, MAX_NAME);
  }

  public ToolDefinition definition() {
    return definition;
  }

  public String name() {
    return definition.name();
  }

  /** Calls the tool; a failure of the server is a failed result the model reads, not an error. */
  public SandboxToolResult call(Map<String, Object> arguments) {
    CallToolResult result;
    try {
      result = client.callTool(new McpSchema.CallToolRequest(tool.name(), arguments));
    } catch (RuntimeException e) {
      return failure(
          "MCP server " + server + " failed to run " + tool.name() + ": " + rootMessage(e));
    }
    return result(!Boolean.TRUE.equals(result.isError()), bounded(text(result)));
  }

  /** A call that could not be made; the model reads why. */
  public static SandboxToolResult failure(String reason) {
    return result(false, "error: " + reason);
  }

  private static SandboxToolResult result(boolean succeeded, String output) {
    return new SandboxToolResult(TYPE, succeeded, null, null, output, null, output);
  }

  private static String text(CallToolResult result) {
    List<String> parts = new ArrayList<>();
    for (Content content : result.content() == null ? List.<Content>of() : result.content()) {
      parts.add(
          content instanceof TextContent text ? text.text() : "[" + content.type() + " content]");
    }
    if (parts.isEmpty() && result.structuredContent() != null) {
      try {
        parts.add(McpJsonDefaults.getMapper().writeValueAsString(result.structuredContent()));
      } catch (IOException e) {
        parts.add(String.valueOf(result.structuredContent()));
      }
    }
    return String.join("\n", parts);
  }

  private String bounded(String text) {
    if (text.length() <= outputLimitBytes) {
      return text;
    }
    return text.substring(0, outputLimitBytes)
        + "\n[... output truncated: "
        + (text.length() - outputLimitBytes)
        + " characters omitted ...]";
  }

  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return root == failure ? message : failure.getMessage() + " (" + message + ")";
  }
}
