package dev.threadline.operator.worker.mcp;

import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's MCP servers as the worker holds them: each is connected, initialised and asked for its
 * tools within its {@code startupTimeoutSec}, all at once. A server that fails is reported and left
 * out; the run goes on without it.
 */
public final class McpConnections implements AutoCloseable {

  /** The setting that lets http MCP servers be on private addresses (tests, local mode). */
  public static final String ALLOW_PRIVATE_TARGETS = "THREADLINE_MCP_ALLOW_PRIVATE_TARGETS";

  /** What happened to each server, for the run's events. */
  public interface Listener {
    void started(String server, List<String> toolNames);

    void failed(String server, String reason);
  }

  private static final Logger LOG = LoggerFactory.getLogger(McpConnections.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final List<McpSyncClient> clients;
  private final List<McpTool> tools;

  private McpConnections(List<McpSyncClient> clients, List<McpTool> tools) {
    this.clients = clients;
    this.tools = tools;
  }

  /** No servers: nothing to start or close. */
  public static McpConnections none() {
    return new McpConnections(List.of(), List.of());
  }

  /**
   * Connects to every server of {@code servers}.
   *
   * @param allowPrivateTargets whether an http server may be on a private address
   * @param outputLimitBytes the most text of one tool result kept
   */
  public static McpConnections start(
      List<McpServerPlan> servers,
      SandboxClient client,
      SandboxAddress sandbox,
      boolean allowPrivateTargets,
      int outputLimitBytes,
      Listener listener) {
    return start(
        servers,
        client,
        sandbox,
        allowPrivateTargets,
        SystemDefaultDnsResolver.INSTANCE,
        outputLimitBytes,
        listener);
  }

  /** With {@code names} resolving the http servers' hosts: a test's own answers. */
  static McpConnections start(
      List<McpServerPlan> servers,
      SandboxClient client,
      SandboxAddress sandbox,
      boolean allowPrivateTargets,
      DnsResolver names,
      int outputLimitBytes,
      Listener listener) {
    if (servers.isEmpty()) {
      return none();
    }
    McpTransports transports = new McpTransports(client, sandbox, allowPrivateTargets, names);
    List<McpSyncClient> clients = new ArrayList<>();
    List<McpTool> tools = new ArrayList<>();
    try (ExecutorService starter = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Started>> starts =
          servers.stream()
              .map(server -> starter.submit(() -> connect(server, transports, outputLimitBytes)))
              .toList();
      for (int i = 0; i < servers.size(); i++) {
        McpServerPlan server = servers.get(i);
        try {
          Started started = starts.get(i).get(server.startupTimeoutSec() + 1L, TimeUnit.SECONDS);
          clients.add(started.client());
          tools.addAll(started.tools());
          listener.started(server.name(), started.tools().stream().map(McpTool::name).toList());
        } catch (TimeoutException e) {
          starts.get(i).cancel(true);
          listener.failed(
              server.name(), "did not start within " + server.startupTimeoutSec() + " s");
        } catch (ExecutionException e) {
          listener.failed(server.name(), reason(server, e.getCause()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          listener.failed(server.name(), "the run was interrupted while it started");
        }
      }
    }
    return new McpConnections(List.copyOf(clients), List.copyOf(tools));
  }

  private record Started(McpSyncClient client, List<McpTool> tools) {}

  private static Started connect(
      McpServerPlan server, McpTransports transports, int outputLimitBytes) {
    Duration startup = Duration.ofSeconds(server.startupTimeoutSec());
    McpSyncClient client =
        McpClient.sync(transports.create(server))
            .clientInfo(new McpSchema.Implementation("threadline-worker", "0.1.0"))
            .initializationTimeout(startup)
            .requestTimeout(Duration.ofSeconds(server.toolTimeoutSec()))
            .build();
    try {
      client.initialize();
      List<McpTool> tools = new ArrayList<>();
      String cursor = null;
      do {
        McpSchema.ListToolsResult page =
            cursor == null ? client.listTools() : client.listTools(cursor);
        page.tools()
            .forEach(tool -> tools.add(new McpTool(server.name(), tool, client, outputLimitBytes)));
        cursor = page.nextCursor();
      } while (cursor != null && !cursor.isEmpty());
      return new Started(client, tools);
    } catch (RuntimeException e) {
      boolean interrupted = Thread.interrupted();
      closeQuietly(client);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      throw e;
    }
  }

  private static String reason(McpServerPlan server, Throwable failure) {
    if (failure instanceof McpStartException start) {
      return start.getMessage();
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TimeoutException) {
        return "did not start within " + server.startupTimeoutSec() + " s";
      }
    }
    return McpTool.rootMessage(failure);
  }

  public List<McpTool> tools() {
    return tools;
  }

  public Optional<McpTool> find(String name) {
    return tools.stream().filter(tool -> tool.name().equals(name)).findFirst();
  }

  /** Stops the stdio servers and closes the http sessions, in parallel, a few seconds at most. */
  @Override
  public void close() {
    if (clients.isEmpty()) {
      return;
    }
    ExecutorService closer = Executors.newVirtualThreadPerTaskExecutor();
    clients.forEach(client -> closer.submit(() -> closeQuietly(client)));
    closer.shutdown();
    try {
      if (!closer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("MCP servers did not all stop within {} s", CLOSE_WAIT.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(McpSyncClient client) {
    try {
      client.closeGracefully();
    } catch (RuntimeException e) {
      LOG.debug("Closing an MCP client failed: {}", e.getMessage());
    }
  }
}
