package dev.threadline.runner.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A tiny stdio MCP server for the tests, built on the SDK's server classes and launched as a
 * subprocess: {@code add} {a, b} adds two numbers, {@code env} {name} tells an environment
 * variable.
 */
public final class CalcMcpServer {

  private CalcMcpServer() {}

  public static void main(String[] args) throws InterruptedException {
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(McpJsonDefaults.getMapper());
    McpServer.sync(transport)
        .serverInfo("calc", "1.0.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .toolCall(
            tool("add", "Add two numbers", Map.of("a", "number", "b", "number")),
            (exchange, request) -> {
              double sum =
                  ((Number) request.arguments().get("a")).doubleValue()
                      + ((Number) request.arguments().get("b")).doubleValue();
              String text =
                  sum == Math.rint(sum) ? String.valueOf((long) sum) : String.valueOf(sum);
              return CallToolResult.builder().addTextContent(text).build();
            })
        .toolCall(
            tool("env", "Tell an environment variable", Map.of("name", "string")),
            (exchange, request) -> {
              String value = System.getenv(String.valueOf(request.arguments().get("name")));
              return CallToolResult.builder()
                  .addTextContent(value == null ? "(unset)" : value)
                  .build();
            })
        .build();
    // The transport reads stdin on its own threads; the client stops this process when it is done.
    new CountDownLatch(1).await();
  }

  private static McpSchema.Tool tool(String name, String description, Map<String, String> types) {
    Map<String, Object> properties = new java.util.LinkedHashMap<>();
    types.forEach((property, type) -> properties.put(property, Map.of("type", type)));
    return McpSchema.Tool.builder()
        .name(name)
        .description(description)
        .inputSchema(
            Map.of(
                "type",
                "object",
                "properties",
                properties,
                "required",
                List.copyOf(types.keySet())))
        .build();
  }
}
