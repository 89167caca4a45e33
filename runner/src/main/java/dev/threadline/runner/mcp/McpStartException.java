package dev.threadline.runner.mcp;

/** An MCP server that could not be started; the message says why, without secrets. */
class McpStartException extends RuntimeException {

  McpStartException(String message) {
    super(message);
  }
}
