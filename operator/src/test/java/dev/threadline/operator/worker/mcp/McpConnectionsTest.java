package dev.threadline.operator.worker.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import dev.threadline.operator.worker.SandboxToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's MCP client: a stdio server in a real sandbox ({@code runner serve}) through its
 * piping endpoints, an http server on loopback called by the worker with its bearer token, and a
 * private-address http server refused.
 */
class McpConnectionsTest {
  private final SandboxClient client = new SandboxClient();
  private final Map<String, String> failures = new ConcurrentHashMap<>();
  private final Map<String, List<String>> started = new ConcurrentHashMap<>();
  private final McpConnections.Listener listener =
      new McpConnections.Listener() {
        @Override
        public void started(String server, List<String> toolNames) {
          started.put(server, toolNames);
        }

        @Override
        public void failed(String server, String reason) {
          failures.put(server, reason);
        }
      };

  @Test
  void aStdioServerRunsInTheSandboxAndAnswersThroughItsPipes(@TempDir Path dir) throws Exception {
    try (EchoSandbox sandbox = new EchoSandbox(dir);
        McpConnections connections =
            McpConnections.start(
                List.of(EchoSandbox.echoServer()),
                client,
                sandbox.address(),
                false,
                1000,
                listener)) {
      assertThat(failures).isEmpty();
      assertThat(started).containsEntry("echo", List.of("mcp__echo__echo"));
      McpTool tool = connections.find("mcp__echo__echo").orElseThrow();
      assertThat(tool.definition().description()).isEqualTo("[MCP server echo] Echoes its text");
      SandboxToolResult result = tool.call(Map.of("text", "through the sandbox"));
      assertThat(result.succeeded()).isTrue();
      assertThat(result.type()).isEqualTo(McpTool.TYPE);
      assertThat(result.output()).isEqualTo("echo: through the sandbox");
    }
  }

  @Test
  void anHttpServerIsCalledByTheWorkerWithItsBearerToken() throws Exception {
    try (LoopbackHttpMcpServer server = new LoopbackHttpMcpServer()) {
      McpServerPlan shout =
          new McpServerPlan(
              "shout", McpServerPlan.HTTP, null, List.of(), server.url(), "token-1", 10, 10);
      try (McpConnections connections =
          McpConnections.start(List.of(shout), client, unusedSandbox(), true, 1000, listener)) {
        assertThat(failures).isEmpty();
        SandboxToolResult result =
            connections.find("mcp__shout__shout").orElseThrow().call(Map.of("text", "hello"));
        assertThat(result.output()).isEqualTo("HELLO");
        assertThat(server.authorizations).isNotEmpty().allMatch("Bearer token-1"::equals);
      }
    }
  }

  @Test
  void anHttpServerOnAPrivateAddressIsRefused() throws Exception {
    try (LoopbackHttpMcpServer server = new LoopbackHttpMcpServer()) {
      McpServerPlan shout =
          new McpServerPlan(
              "shout", McpServerPlan.HTTP, null, List.of(), server.url(), "token-1", 10, 10);
      try (McpConnections connections =
          McpConnections.start(List.of(shout), client, unusedSandbox(), false, 1000, listener)) {
        assertThat(connections.tools()).isEmpty();
        assertThat(failures.get("shout"))
            .contains("private address")
            .contains(McpConnections.ALLOW_PRIVATE_TARGETS);
        assertThat(server.authorizations).isEmpty();
      }
    }
  }

  private static SandboxAddress unusedSandbox() {
    return SandboxAddress.of("127.0.0.1", 9, "unused");
  }
}
