package dev.threadline.runner.serve;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.containers.SandboxProof;
import dev.threadline.runner.serve.calls.ToolCalls;
import dev.threadline.runner.serve.mcp.StdioMcpServers;
import dev.threadline.runner.tools.CommandGroups;
import dev.threadline.runner.workspace.FileDiff;
import dev.threadline.runner.workspace.WorkspaceRevert;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox API (docs/sandbox-api.md), served by {@code runner serve} inside an agent's or a
 * container's Pod and called by the worker and the api-server only: they send the sandbox's
 * credential ({@code Authorization: Bearer}; {@code /health} needs none, for the kubelet's probe).
 *
 * <ul>
 *   <li>{@code GET /health} → {@code {healthy: true, startedAt}}; with {@code ?challenge=} also
 *       {@code proof}: that the sandbox holds its credential ({@link SandboxProof})
 *   <li>{@code GET /files?path=} → {@code {path, entries: [{name, path, type, size, modifiedAt}]}}
 *   <li>{@code GET /files/download?path=} → the bytes
 *   <li>{@code PUT /files?path=} with the raw bytes → {@code {path, size, created}} (201 new, 200
 *       replaced)
 *   <li>{@code DELETE /files?path=} → {@code {path, deleted: true}}
 *   <li>{@code /calls}: tool calls ({@link CallsEndpoint})
 *   <li>{@code POST /workspace/snapshot}, {@code GET /workspace/diff?snapshot=}, {@code POST
 *       /workspace/revert?snapshot=} → {@code {restored, removed, unrestorable: [path…]}} (at most
 *       {@value #MAX_LISTED_PATHS} paths listed, {@code unrestorableCount} all of them)
 *   <li>{@code /mcp/{name}}: stdio MCP servers ({@link McpEndpoint})
 * </ul>
 *
 * Errors are {@code {error, message}}: 400 for a path outside the workspace or of the wrong kind,
 * 401 without the token, 404 for a missing file, 409 for a folder in the way, 413 past the upload
 * limit. Each request is handled on its own virtual thread and logged (to the Pod's log).
 */
public final class FileApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileApiServer.class);

  /** The most paths an answer lists. */
  static final int MAX_LISTED_PATHS = 100;

  private final HttpServer server;
  private final ExecutorService executor;
  private final WorkspaceFiles files;
  private final WorkspaceSnapshots snapshots;
  private final ToolCalls calls;
  private final StdioMcpServers mcpServers;
  private final SandboxBinding binding;
  private final WorkspaceArchive archive;
  private final long maxUploadBytes;
  private final Instant startedAt = Instant.now();

  /** How often a taken port is tried, and how long apart: 5 s in all. */
  static final int BIND_ATTEMPTS = 20;

  static final Duration BIND_PAUSE = Duration.ofMillis(250);

  /** The most a restored workspace archive may unpack to. */
  static final long MAX_RESTORED_BYTES = 256L * 1024 * 1024;

  private FileApiServer(
      HttpServer server,
      ExecutorService executor,
      Path workspace,
      SandboxBinding binding,
      long maxUploadBytes) {
    this.server = server;
    this.executor = executor;
    this.files = new WorkspaceFiles(workspace);
    this.snapshots = new WorkspaceSnapshots(workspace);
    this.calls = new ToolCalls(workspace, binding::environment, CommandGroups.of(System.getenv()));
    this.mcpServers = new StdioMcpServers(workspace, binding::environment);
    this.binding = binding;
    this.archive = new WorkspaceArchive(workspace);
    this.maxUploadBytes = maxUploadBytes;
  }

  public static FileApiServer start(ServeOptions options) throws IOException {
    if (options.bindTokenFile() != null) {
      FileApiServer api =
          start(options, SandboxBinding.unbound(AccessToken.fromFile(options.bindTokenFile())));
      BindWarmUp.run(api.port());
      return api;
    }
    return start(options, SandboxBinding.bound(AccessToken.fromFile(options.tokenFile())));
  }

  /**
   * Listens on {@code address}. A port another program holds for a moment (a probe of whether it is
   * free, an outgoing connection's local port) is tried again, {@value #BIND_ATTEMPTS} times {@link
   * #BIND_PAUSE} apart, before the sandbox gives up on it; port 0 (any) is never retried.
   */
  static HttpServer bind(InetSocketAddress address) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return HttpServer.create(address, 64);
      } catch (BindException taken) {
        if (address.getPort() == 0 || attempt >= BIND_ATTEMPTS) {
          throw taken;
        }
        LOG.info("Port {} is taken (attempt {}): trying again", address.getPort(), attempt);
        try {
          Thread.sleep(BIND_PAUSE);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw taken;
        }
      }
    }
  }

  static FileApiServer start(ServeOptions options, SandboxBinding binding) throws IOException {
    Path workspace = Files.createDirectories(options.workspace());
    HttpServer server = bind(new InetSocketAddress(options.address(), options.port()));
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    FileApiServer api =
        new FileApiServer(server, executor, workspace, binding, options.maxUploadBytes());
    CallsEndpoint callsEndpoint = new CallsEndpoint(api.calls);
    McpEndpoint mcpEndpoint = new McpEndpoint(api.mcpServers);
    server.createContext("/health", exchange -> api.handle(exchange, false, exact(api::health)));
    // The bind checks the pool's credential itself: no other credential opens it.
    server.createContext("/bind", exchange -> api.handle(exchange, false, exact(api::bind)));
    server.createContext("/files", exchange -> api.handle(exchange, true, exact(api::files)));
    server.createContext(
        "/files/download", exchange -> api.handle(exchange, true, exact(api::download)));
    server.createContext("/calls", exchange -> api.handle(exchange, true, callsEndpoint::handle));
    server.createContext("/workspace", exchange -> api.handle(exchange, true, api::workspace));
    server.createContext("/mcp", exchange -> api.handle(exchange, true, mcpEndpoint::handle));
    server.start();
    return api;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  /** A handler for its endpoint's own path only, not for paths below it. */
  private static Handler exact(Handler handler) {
    return exchange -> {
      if (!"".equals(Exchanges.subPath(exchange))) {
        throw FileApiException.notFound("no such endpoint: " + exchange.getRequestURI().getPath());
      }
      handler.handle(exchange);
    };
  }

  private void handle(HttpExchange exchange, boolean guarded, Handler handler) throws IOException {
    long start = System.nanoTime();
    try (exchange) {
      try {
        if (guarded && !binding.accepts(exchange.getRequestHeaders())) {
          throw new FileApiException(401, "missing or wrong credential");
        }
        handler.handle(exchange);
      } catch (IOException | RuntimeException e) {
        if (exchange.getResponseCode() != -1) {
          // A streamed answer already began: the follower's connection broke, or the sandbox stops.
          LOG.debug(
              "{} {} ended: {}", exchange.getRequestMethod(), describe(exchange), e.toString());
          return;
        }
        if (e instanceof FileApiException refused) {
          drain(exchange);
          Exchanges.error(exchange, refused.status(), refused.getMessage());
          return;
        }
        LOG.warn(
            "{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI().getPath(), e);
        Exchanges.error(exchange, 500, "the sandbox failed: " + e.getMessage());
      }
    } finally {
      LOG.info(
          "{} {} {} ({} ms)",
          exchange.getRequestMethod(),
          describe(exchange),
          exchange.getResponseCode(),
          (System.nanoTime() - start) / 1_000_000);
    }
  }

  private void workspace(HttpExchange exchange) throws IOException {
    switch (Exchanges.subPath(exchange) + " " + exchange.getRequestMethod()) {
      case "snapshot POST" -> Exchanges.json(exchange, 200, Map.of("snapshot", snapshots.take()));
      case "diff GET" -> {
        List<FileDiff> diffs = snapshots.diffSince(Exchanges.query(exchange).get("snapshot"));
        List<Map<String, Object>> changes = diffs.stream().map(FileApiServer::change).toList();
        Exchanges.json(exchange, 200, Map.of("diffs", diffs, "changes", changes));
      }
      case "revert POST" -> {
        WorkspaceRevert.Result result =
            snapshots.revertTo(Exchanges.query(exchange).get("snapshot"));
        Exchanges.json(
            exchange,
            200,
            Map.of(
                "restored",
                result.restored(),
                "removed",
                result.removed(),
                "unrestorable",
                result.unrestorable().stream().limit(MAX_LISTED_PATHS).toList(),
                "unrestorableCount",
                result.unrestorable().size()));
      }
      case "archive GET" -> {
        exchange.getResponseHeaders().set("Content-Type", "application/zip");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
          archive.write(out);
        }
      }
      case "archive PUT" -> {
        try (InputStream body = exchange.getRequestBody()) {
          archive.restore(body, MAX_RESTORED_BYTES);
        }
        Exchanges.json(exchange, 200, Map.of("restored", true));
      }
      case "snapshot GET", "snapshot PUT", "snapshot DELETE" ->
          throw new FileApiException(405, "use POST");
      case "diff POST", "diff PUT", "diff DELETE" -> throw new FileApiException(405, "use GET");
      default ->
          throw FileApiException.notFound(
              "no such endpoint: " + exchange.getRequestURI().getPath());
    }
  }

  private static Map<String, Object> change(FileDiff diff) {
    Map<String, Object> change = new LinkedHashMap<>();
    change.put("path", diff.path());
    change.put("change", diff.change());
    change.put("additions", diff.additions());
    change.put("deletions", diff.deletions());
    return change;
  }

  private void bind(HttpExchange exchange) throws IOException {
    requireMethod(exchange, "POST");
    binding.bind(
        exchange.getRequestHeaders(),
        JsonBody.object(Exchanges.body(exchange, 4 * 1024 * 1024), "the run's token and env"));
    Exchanges.json(exchange, 200, Map.of("bound", true));
  }

  private void health(HttpExchange exchange) throws IOException {
    requireMethod(exchange, "GET");
    String challenge = Exchanges.query(exchange).get(SandboxProof.CHALLENGE);
    if (challenge == null) {
      Exchanges.json(exchange, 200, Map.of("healthy", true, "startedAt", startedAt.toString()));
      return;
    }
    if (challenge.isEmpty() || challenge.length() > SandboxProof.MAX_CHALLENGE) {
      throw FileApiException.badRequest(
          "challenge must have 1 to " + SandboxProof.MAX_CHALLENGE + " characters");
    }
    Exchanges.json(
        exchange,
        200,
        Map.of(
            "healthy",
            true,
            "startedAt",
            startedAt.toString(),
            SandboxProof.PROOF,
            binding.prove(challenge)));
  }

  private void files(HttpExchange exchange) throws IOException {
    Map<String, String> query = Exchanges.query(exchange);
    String path = query.get("path");
    switch (exchange.getRequestMethod()) {
      case "GET" -> {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("path", path == null || path.isBlank() ? "." : path);
        body.put("entries", files.list(path == null || path.isBlank() ? "." : path));
        Exchanges.json(exchange, 200, body);
      }
      case "PUT" -> {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null && parseLength(length) > maxUploadBytes) {
          throw FileApiException.tooLarge(maxUploadBytes);
        }
        WorkspaceFiles.Written written;
        try (InputStream body = exchange.getRequestBody()) {
          written = files.write(path, body, maxUploadBytes);
        }
        Exchanges.json(
            exchange,
            written.created() ? 201 : 200,
            Map.of("path", written.path(), "size", written.size(), "created", written.created()));
      }
      case "DELETE" ->
          Exchanges.json(exchange, 200, Map.of("path", files.delete(path), "deleted", true));
      default -> throw new FileApiException(405, "use GET, PUT or DELETE");
    }
  }

  private void download(HttpExchange exchange) throws IOException {
    requireMethod(exchange, "GET");
    Path file = files.file(Exchanges.query(exchange).get("path"));
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    exchange.getResponseHeaders().set("X-Threadline-Path", files.relative(file));
    long size = Files.size(file);
    exchange.sendResponseHeaders(200, size == 0 ? -1 : size);
    try (OutputStream out = exchange.getResponseBody()) {
      Files.copy(file, out);
    }
  }

  private static void requireMethod(HttpExchange exchange, String method) {
    if (!method.equals(exchange.getRequestMethod())) {
      throw new FileApiException(405, "use " + method);
    }
  }

  private static long parseLength(String length) {
    try {
      return Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      throw FileApiException.badRequest("Content-Length is not a number");
    }
  }

  /** Reads what is left of a refused request's body, so the connection stays usable. */
  private static void drain(HttpExchange exchange) {
    try (InputStream body = exchange.getRequestBody()) {
      body.skip(Long.MAX_VALUE);
    } catch (IOException ignored) {
      // the answer goes out anyway
    }
  }

  private static String describe(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    String query = exchange.getRequestURI().getRawQuery();
    return query == null ? path : path + "?" + query;
  }

  @Override
  public void close() {
    calls.close();
    mcpServers.close();
    server.stop(1);
    executor.close();
  }
}
