package dev.threadline.operator.worker.mcp;

import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.runner.serve.FileApiServer;
import dev.threadline.runner.serve.ServeOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real sandbox ({@code runner serve} on loopback) whose workspace holds a tiny stdio MCP server,
 * {@code echo_server.py}, with one tool, {@code echo}.
 */
public final class EchoSandbox implements AutoCloseable {
  private static final String CREDENTIAL = "sandbox-credential-for-mcp";

  private final FileApiServer server;

  public EchoSandbox(Path dir) throws IOException {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    try (InputStream script = EchoSandbox.class.getResourceAsStream("/mcp/echo_server.py")) {
      Files.write(workspace.resolve("echo_server.py"), script.readAllBytes());
    }
    Path tokenFile = Files.writeString(dir.resolve("token"), CREDENTIAL);
    server =
        FileApiServer.start(
            new ServeOptions(
                workspace, "127.0.0.1", 0, tokenFile, ServeOptions.DEFAULT_MAX_UPLOAD_BYTES));
  }

  public SandboxAddress address() {
    return SandboxAddress.of("127.0.0.1", server.port(), CREDENTIAL);
  }

  /** The MCP server {@code echo} of this sandbox. */
  public static McpServerPlan echoServer() {
    return new McpServerPlan(
        "echo", McpServerPlan.STDIO, "python3", List.of("echo_server.py"), null, null, 20, 20);
  }

  @Override
  public void close() {
    server.close();
  }
}
