package dev.threadline.operator.worker.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.network.RebindingDnsResolver;
import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import dev.threadline.operator.worker.SandboxToolResult;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.client5.http.impl.InMemoryDnsResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The worker's MCP client: a stdio server in a real sandbox ({@code runner serve}) through its
 * piping endpoints, an http server on loopback called by the worker with its bearer token (three
 * ways of answering), and http servers whose name resolves to a refused address at connection time
 * refused.
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
            .contains("is a loopback address")
            .contains(McpConnections.ALLOW_PRIVATE_TARGETS);
        assertThat(server.authorizations).isEmpty();
      }
    }
  }

  @Test
  void aNameThatResolvesToLoopbackWhenConnectingIsRefusedAndNothingIsSent() throws Exception {
    // Public to the lookup a check made beforehand, loopback to the one the connection makes.
    RebindingDnsResolver rebinding = new RebindingDnsResolver("93.184.216.34", "127.0.0.1");
    rebinding.resolve("mcp.test");
    try (LoopbackHttpMcpServer server = new LoopbackHttpMcpServer();
        McpConnections connections =
            McpConnections.start(
                List.of(shout(server.url("mcp.test"))),
                client,
                unusedSandbox(),
                false,
                rebinding,
                1000,
                listener)) {
      assertThat(connections.tools()).isEmpty();
      assertThat(failures.get("shout"))
          .contains("mcp.test (127.0.0.1) is a loopback address")
          .contains(McpConnections.ALLOW_PRIVATE_TARGETS)
          .doesNotContain("token-1");
      assertThat(server.authorizations).isEmpty();
    }
  }

  @Test
  void aNameThatResolvesToAPrivateNetworkIsRefused() throws Exception {
    InMemoryDnsResolver names = new InMemoryDnsResolver();
    names.add("mcp.test", InetAddress.getByName("10.1.2.3"));
    try (McpConnections connections =
        McpConnections.start(
            List.of(shout("http://mcp.test:9/mcp")),
            client,
            unusedSandbox(),
            false,
            names,
            1000,
            listener)) {
      assertThat(connections.tools()).isEmpty();
      assertThat(failures.get("shout"))
          .contains("mcp.test (10.1.2.3) is a private-network address");
    }
  }

  @ParameterizedTest
  @EnumSource(LoopbackHttpMcpServer.Style.class)
  void theConnectionGoesToTheAddressTheResolverAnswered(LoopbackHttpMcpServer.Style style)
      throws Exception {
    // The check is relaxed (the server is on loopback); "mcp.test" exists only in this resolver.
    InMemoryDnsResolver names = new InMemoryDnsResolver();
    names.add("mcp.test", InetAddress.getLoopbackAddress());
    try (LoopbackHttpMcpServer server = new LoopbackHttpMcpServer(style)) {
      try (McpConnections connections =
          McpConnections.start(
              List.of(shout(server.url("mcp.test"))),
              client,
              unusedSandbox(),
              true,
              names,
              1000,
              listener)) {
        assertThat(failures).isEmpty();
        SandboxToolResult result =
            connections.find("mcp__shout__shout").orElseThrow().call(Map.of("text", "hello"));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.output()).isEqualTo("HELLO");
        assertThat(server.authorizations).isNotEmpty().allMatch("Bearer token-1"::equals);
      }
      if (style == LoopbackHttpMcpServer.Style.EVENT_STREAM) {
        // The session the server handed out is sent back after initialize, and ended at close.
        assertThat(server.sessionHeaders.getFirst()).isEqualTo("null");
        assertThat(server.sessionHeaders.subList(1, server.sessionHeaders.size()))
            .isNotEmpty()
            .allMatch(LoopbackHttpMcpServer.SESSION::equals);
        assertThat(server.deletes).containsExactly(LoopbackHttpMcpServer.SESSION);
      }
    }
  }

  @Test
  void anSseServerThatNamesAnEndpointOnAnotherOriginIsRefusedAndGetsNoMessage() throws Exception {
    try (LoopbackHttpMcpServer server =
            new LoopbackHttpMcpServer(
                LoopbackHttpMcpServer.Style.LEGACY_SSE, "http://elsewhere.test:9/messages");
        McpConnections connections =
            McpConnections.start(
                List.of(shout(server.url())), client, unusedSandbox(), true, 1000, listener)) {
      assertThat(connections.tools()).isEmpty();
      assertThat(failures.get("shout")).contains("another origin");
      assertThat(server.legacyPosts).isEmpty();
    }
  }

  private static McpServerPlan shout(String url) {
    return new McpServerPlan("shout", McpServerPlan.HTTP, null, List.of(), url, "token-1", 10, 10);
  }

  private static SandboxAddress unusedSandbox() {
    return SandboxAddress.of("127.0.0.1", 9, "unused");
  }
}
