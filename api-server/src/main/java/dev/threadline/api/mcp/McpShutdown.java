package dev.threadline.api.mcp;

import io.modelcontextprotocol.server.McpSyncServer;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the MCP sessions when the server begins to stop, before the web server waits for its
 * requests to finish: a session's own stream ({@code GET /mcp}) never ends by itself and would hold
 * the graceful shutdown to its timeout. Calls in progress end as REST streams do on shutdown.
 */
final class McpShutdown implements SmartLifecycle {
  private final McpSyncServer server;
  private volatile boolean running;

  McpShutdown(McpSyncServer server) {
    this.server = server;
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    server.closeGracefully();
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
