package dev.threadline.api.mcp;

import dev.threadline.api.errors.ExceptionMapper;
import dev.threadline.api.errors.MappedError;
import io.modelcontextprotocol.spec.McpSchema;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a tool answers: the REST endpoint's JSON body as its text, or, for a failure, an error
 * result ({@code isError}) whose text is the REST error body with its HTTP status. A tool's failure
 * is the tool's result, as MCP asks, so that the model sees why; protocol errors (an unknown tool,
 * a malformed message) stay JSON-RPC errors, the SDK's.
 */
final class ToolResults {
  private final JsonMapper json;
  private final ExceptionMapper errors;

  ToolResults(JsonMapper json, ExceptionMapper errors) {
    this.json = json;
    this.errors = errors;
  }

  /** {@code body} as REST writes it, as the result's one text block. */
  McpSchema.CallToolResult ok(Object body) {
    return McpSchema.CallToolResult.builder()
        .addTextContent(json.writeValueAsString(body))
        .isError(false)
        .build();
  }

  /**
   * The failure as REST would report it ({@code {status, error, message}}, plus {@code usage} on
   * 402); anything unexpected is logged under a reference and shows only that.
   */
  McpSchema.CallToolResult failed(Throwable failure, String tool) {
    MappedError mapped = errors.map(failure, "MCP tools/call " + tool);
    ObjectNode body = json.createObjectNode().put("status", mapped.status());
    body.setAll((ObjectNode) json.valueToTree(mapped.body()));
    return McpSchema.CallToolResult.builder()
        .addTextContent(json.writeValueAsString(body))
        .isError(true)
        .build();
  }
}
