package dev.threadline.api.mcp;

import dev.threadline.api.errors.ExceptionMapper;
import dev.threadline.api.limits.BodyLimits;
import dev.threadline.api.stream.RunStreams;
import dev.threadline.api.threads.ExecutionService;
import dev.threadline.api.threads.ThreadReader;
import dev.threadline.api.threads.ThreadService;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * Threadline as an MCP server: the streamable HTTP transport of the MCP Java SDK at {@value #PATH},
 * a servlet behind the same filters as REST (the bearer key, its scopes, rate limit, concurrency
 * caps and body limit), serving {@link ThreadTools}. Sessions live in the replica that created them
 * (the SDK keeps them in memory and closes idle ones): with several api-server replicas an MCP
 * client needs session affinity in front of them, or it is told to start a new session (404).
 */
@Configuration(proxyBeanMethods = false)
class McpConfiguration {
  static final String PATH = "/mcp";

  @Bean
  HttpServletStreamableServerTransportProvider mcpTransport() {
    return HttpServletStreamableServerTransportProvider.builder()
        // The SDK's own mapper for its protocol types: the API's strict scalar rules are for
        // REST bodies, not for JSON-RPC envelopes.
        .jsonMapper(new JacksonMcpJsonMapper(JsonMapper.builder().build()))
        .mcpEndpoint(PATH)
        .contextExtractor(McpCaller::contextOf)
        .maxRequestSize((int) BodyLimits.JSON.bytes())
        .build();
  }

  @Bean
  McpShutdown mcpShutdown(McpSyncServer mcpServer) {
    return new McpShutdown(mcpServer);
  }

  @Bean(destroyMethod = "")
  McpSyncServer mcpServer(
      HttpServletStreamableServerTransportProvider mcpTransport,
      ThreadService threads,
      ExecutionService executions,
      ThreadReader reader,
      RunStreams streams,
      JsonMapper json,
      ExceptionMapper errors) {
    return McpServer.sync(mcpTransport)
        .serverInfo("threadline", version())
        .instructions(
            "Threadline runs agent tasks in threads: start_task starts one (commands and file"
                + " edits run in a sandbox), send_message follows up, read_* show a thread's"
                + " messages, logs and diffs.")
        .jsonSchemaValidator(new ToolSchemaValidator())
        // ToolArguments reads the arguments as REST reads a body: a refusal names the argument in
        // the REST error body, which the SDK's own check (a schema report as text) would not.
        .validateToolInputs(false)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(
            new ThreadTools(threads, executions, reader, streams, new ToolResults(json, errors))
                .all())
        .build();
  }

  /** The jar's version where its manifest names one. */
  private static String version() {
    return Optional.ofNullable(McpConfiguration.class.getPackage().getImplementationVersion())
        .orElse("development");
  }

  @Bean
  ServletRegistrationBean<HttpServletStreamableServerTransportProvider> mcpServlet(
      HttpServletStreamableServerTransportProvider mcpTransport) {
    ServletRegistrationBean<HttpServletStreamableServerTransportProvider> registration =
        new ServletRegistrationBean<>(mcpTransport, PATH);
    registration.setAsyncSupported(true);
    registration.setName("mcp");
    return registration;
  }
}
