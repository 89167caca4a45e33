package dev.threadline.operator.worker.mcp;

import dev.threadline.operator.webhooks.PublicAddressResolver;
import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * The SDK transport for one server: a stdio server through the sandbox's piping endpoints, an http
 * server straight from the worker, its host checked like a webhook's ({@link
 * PublicAddressResolver}) unless private targets are allowed.
 */
final class McpTransports {
  private final SandboxClient client;
  private final SandboxAddress sandbox;
  private final PublicAddressResolver publicAddresses;

  /**
   * @param publicAddresses null when private targets are allowed
   */
  McpTransports(
      SandboxClient client, SandboxAddress sandbox, PublicAddressResolver publicAddresses) {
    this.client = client;
    this.sandbox = sandbox;
    this.publicAddresses = publicAddresses;
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
    requirePublic(uri.getHost());
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    String path =
        uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path += "?" + uri.getRawQuery();
    }
    HttpRequest.Builder requests = HttpRequest.newBuilder();
    if (server.bearerToken() != null && !server.bearerToken().isBlank()) {
      requests.header("Authorization", "Bearer " + server.bearerToken().strip());
    }
    Duration connectTimeout = Duration.ofSeconds(server.startupTimeoutSec());
    HttpClient.Builder http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER);
    if (uri.getRawPath() != null && uri.getRawPath().endsWith("/sse")) {
      return HttpClientSseClientTransport.builder(base)
          .sseEndpoint(path)
          .clientBuilder(http)
          .requestBuilder(requests)
          .connectTimeout(connectTimeout)
          .build();
    }
    return HttpClientStreamableHttpTransport.builder(base)
        .endpoint(path)
        .clientBuilder(http)
        .requestBuilder(requests)
        .connectTimeout(connectTimeout)
        .build();
  }

  private void requirePublic(String host) {
    if (publicAddresses == null) {
      return;
    }
    try {
      publicAddresses.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
    } catch (UnknownHostException e) {
      throw new McpStartException(e.getMessage());
    }
  }
}
