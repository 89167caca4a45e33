package dev.threadline.runner.mcp;

import dev.threadline.runner.run.RunInput.McpServer;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the SDK transport for one configured server, resolving its secrets from the environment.
 */
final class McpTransports {

  private static final Logger log = LoggerFactory.getLogger(McpTransports.class);

  private McpTransports() {}

  static McpClientTransport create(McpServer server, Map<String, String> env, Path workspace) {
    return server.type().equals(McpServer.STDIO)
        ? stdio(server, env, workspace)
        : http(server, env);
  }

  private static McpClientTransport stdio(
      McpServer server, Map<String, String> env, Path workspace) {
    requireExecutable(server.command(), env.getOrDefault("PATH", System.getenv("PATH")), workspace);
    ServerParameters parameters =
        ServerParameters.builder(server.command())
            .args(server.args())
            .env(resolveEnv(server, env))
            .build();
    WorkspaceStdioTransport transport =
        new WorkspaceStdioTransport(parameters, McpJsonDefaults.getMapper(), workspace);
    transport.setStdErrorHandler(line -> log.info("[mcp {}] {}", server.name(), line));
    return transport;
  }

  /**
   * Fails at once for a command that cannot run: the SDK only logs a failed process start, and the
   * client would then wait the whole startup timeout for an answer that cannot come.
   */
  static void requireExecutable(String command, String path, Path workspace) {
    if (command.contains("/")) {
      if (!Files.isExecutable(workspace.resolve(command))) {
        throw new McpStartException("its command " + command + " is not an executable file");
      }
      return;
    }
    for (String dir : (path == null ? "" : path).split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return;
      }
    }
    throw new McpStartException("its command " + command + " is not on the PATH");
  }

  /**
   * Values written {@code $NAME} come from the runner's environment, so run.json holds no secret.
   */
  static Map<String, String> resolveEnv(McpServer server, Map<String, String> env) {
    Map<String, String> resolved = new LinkedHashMap<>();
    server
        .env()
        .forEach((key, value) -> {
          if (value.startsWith("$") && value.length() > 1) {
            String name = value.substring(1);
            String secret = env.get(name);
            if (secret == null) {
              throw new McpStartException(
                  "its env " + key + " refers to $" + name + ", which is not set");
            }
            resolved.put(key, secret);
          } else {
            resolved.put(key, value);
          }
        });
    return resolved;
  }

  /**
   * Streamable HTTP, or the older HTTP+SSE transport when the URL's path ends in {@code /sse}. The
   * bearer token goes on every request as an Authorization header.
   */
  private static McpClientTransport http(McpServer server, Map<String, String> env) {
    URI uri = URI.create(server.url());
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    String path =
        uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path += "?" + uri.getRawQuery();
    }
    HttpRequest.Builder requests = HttpRequest.newBuilder();
    if (server.bearerTokenEnv() != null) {
      String token = env.get(server.bearerTokenEnv());
      if (token == null || token.isBlank()) {
        throw new McpStartException(
            "its bearer token variable " + server.bearerTokenEnv() + " is not set");
      }
      requests.header("Authorization", "Bearer " + token.strip());
    }
    Duration connectTimeout = Duration.ofSeconds(server.startupTimeoutSec());
    if (uri.getRawPath() != null && uri.getRawPath().endsWith("/sse")) {
      return HttpClientSseClientTransport.builder(base)
          .sseEndpoint(path)
          .requestBuilder(requests)
          .connectTimeout(connectTimeout)
          .build();
    }
    return HttpClientStreamableHttpTransport.builder(base)
        .endpoint(path)
        .requestBuilder(requests)
        .connectTimeout(connectTimeout)
        .build();
  }
}
