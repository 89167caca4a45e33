package dev.threadline.operator.worker.mcp;

/** An MCP server that could not be started; the message says why, without secrets. */
final class McpStartException extends RuntimeException {

  McpStartException(String message) {
    super(message);
  }
}
