package dev.threadline.operator.worker.mcp;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.network.TargetSetting;
import dev.threadline.operator.network.UserUrlClients;
import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.URI;
import java.time.Duration;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The transport for one server: a stdio server through the sandbox's piping endpoints, an http
 * server straight from the worker over a {@link UserUrlClients} client — it connects only to
 * addresses that were checked when it resolved the host (public ones, and private networks too when
 * allowed), so a name that answers a public address to one lookup and a private one to the next is
 * refused.
 */
final class McpTransports {
  static final String USER_AGENT = "Threadline-Worker-MCP/1";

  private final SandboxClient client;
  private final SandboxAddress sandbox;
  private final boolean allowPrivateTargets;
  private final DnsResolver names;

  McpTransports(
      SandboxClient client,
      SandboxAddress sandbox,
      boolean allowPrivateTargets,
      DnsResolver names) {
    this.client = client;
    this.sandbox = sandbox;
    this.allowPrivateTargets = allowPrivateTargets;
    this.names = names;
  }

  McpClientTransport create(McpServerPlan server) {
    if (server.type().equals(McpServerPlan.STDIO)) {
      return new SandboxStdioTransport(
          client,
          sandbox,
          server.name(),
          server.command(),
          server.args(),
          McpJsonDefaults.getMapper());
    }
    return http(server);
  }

  /**
   * Streamable HTTP, or the older HTTP+SSE transport when the URL's path ends in {@code /sse}, the
   * bearer token on every request; redirects are not followed.
   */
  private McpClientTransport http(McpServerPlan server) {
    URI uri;
    try {
      uri = URI.create(server.url());
    } catch (IllegalArgumentException e) {
      throw new McpStartException("its url is not a URL");
    }
    if (uri.getHost() == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
      throw new McpStartException("its url must be an http or https URL with a host");
    }
    if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
      uri = uri.resolve("/mcp");
    }
    // Reads wait as long as the SDK's request timeout lets them: a stream may stay quiet.
    CloseableHttpClient http =
        UserUrlClients.create(
            allowPrivateTargets ? AllowedTargets.PRIVATE : AllowedTargets.PUBLIC,
            names,
            TargetSetting.flag(McpConnections.ALLOW_PRIVATE_TARGETS),
            Duration.ofSeconds(server.startupTimeoutSec()),
            Duration.ZERO,
            USER_AGENT);
    if (uri.getRawPath().endsWith("/sse")) {
      return new SseHttpTransport(
          http, uri, server.bearerToken(), server.name(), McpJsonDefaults.getMapper());
    }
    return new StreamableHttpTransport(
        http, uri, server.bearerToken(), server.name(), McpJsonDefaults.getMapper());
  }
}
