package dev.threadline.runner.mcp;

import dev.threadline.runner.run.RunInput.McpServer;
import dev.threadline.runner.tools.Tool;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's MCP servers: each enabled one is started (or connected to), initialised and asked for
 * its tools within its {@code startupTimeoutSec}. A server that fails is reported and left out; the
 * run goes on without it.
 */
public final class McpConnections implements AutoCloseable {

  /** What happened to each server, for the run's setup and error events. */
  public interface Listener {
    void started(String server, List<String> toolNames);

    void failed(String server, String reason);
  }

  private static final Logger log = LoggerFactory.getLogger(McpConnections.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final List<McpSyncClient> clients;
  private final List<Tool> tools;

  private McpConnections(List<McpSyncClient> clients, List<Tool> tools) {
    this.clients = clients;
    this.tools = tools;
  }

  /** No servers: nothing to start or close. */
  public static McpConnections none() {
    return new McpConnections(List.of(), List.of());
  }

  /**
   * Starts every enabled server, all at once so slow ones do not add up.
   *
   * @param env the runner's environment, for {@code $NAME} env values and bearer tokens
   * @param outputLimitBytes the most text of one tool result kept
   */
  public static McpConnections start(
      List<McpServer> servers,
      Map<String, String> env,
      Path workspace,
      int outputLimitBytes,
      Listener listener) {
    List<McpServer> enabled = servers.stream().filter(McpServer::enabled).toList();
    if (enabled.isEmpty()) {
      return none();
    }
    List<McpSyncClient> clients = new ArrayList<>();
    List<Tool> tools = new ArrayList<>();
    try (ExecutorService starter = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Started>> starts =
          enabled.stream()
              .map(
                  server -> starter.submit(() -> connect(server, env, workspace, outputLimitBytes)))
              .toList();
      for (int i = 0; i < enabled.size(); i++) {
        McpServer server = enabled.get(i);
        try {
          Started started = starts.get(i).get(server.startupTimeoutSec() + 1L, TimeUnit.SECONDS);
          clients.add(started.client());
          tools.addAll(started.tools());
          listener.started(server.name(), started.tools().stream().map(Tool::name).toList());
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
      // Leaving the try waits for the start tasks; a timed-out one ends at its own initialize
      // timeout.
    }
    return new McpConnections(List.copyOf(clients), List.copyOf(tools));
  }

  private static String reason(McpServer server, Throwable failure) {
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

  private record Started(McpSyncClient client, List<Tool> tools) {}

  private static Started connect(
      McpServer server, Map<String, String> env, Path workspace, int outputLimitBytes) {
    Duration startup = Duration.ofSeconds(server.startupTimeoutSec());
    McpSyncClient client =
        McpClient.sync(McpTransports.create(server, env, workspace))
            .clientInfo(new McpSchema.Implementation("threadline-runner", "0.1.0"))
            .initializationTimeout(startup)
            .requestTimeout(Duration.ofSeconds(server.toolTimeoutSec()))
            .build();
    try {
      client.initialize();
      List<Tool> tools = new ArrayList<>();
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
      // A start abandoned at its timeout is interrupted: closing must still stop the server
      // process.
      boolean interrupted = Thread.interrupted();
      closeQuietly(client);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      throw e;
    }
  }

  public List<Tool> tools() {
    return tools;
  }

  /**
   * Stops the stdio servers and closes the HTTP sessions, in parallel, waiting a few seconds at
   * most.
   */
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
        log.warn("MCP servers did not all stop within {} s", CLOSE_WAIT.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(McpSyncClient client) {
    try {
      client.closeGracefully();
    } catch (RuntimeException e) {
      log.debug("Closing an MCP client failed: {}", e.getMessage());
    }
  }
}
