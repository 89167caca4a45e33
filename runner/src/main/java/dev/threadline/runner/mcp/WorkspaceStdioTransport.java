package dev.threadline.runner.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.nio.file.Path;

/**
 * The SDK's stdio transport, with the server process started in the workspace and with only the
 * environment its {@link ServerParameters} name. The SDK's own process inherits the runner's whole
 * environment, model key included; here the server sees PATH, HOME and the like plus what its
 * configuration gives it.
 */
final class WorkspaceStdioTransport extends StdioClientTransport {

  private final Path workspace;

  WorkspaceStdioTransport(ServerParameters parameters, McpJsonMapper json, Path workspace) {
    super(parameters, json);
    this.workspace = workspace;
  }

  @Override
  protected ProcessBuilder getProcessBuilder() {
    ProcessBuilder builder = new ProcessBuilder().directory(workspace.toFile());
    builder.environment().clear();
    return builder;
  }
}
