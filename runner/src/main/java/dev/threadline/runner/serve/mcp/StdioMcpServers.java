package dev.threadline.runner.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.runner.serve.FileApiException;
import dev.threadline.runner.serve.JsonBody;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The stdio MCP servers of one sandbox, by name. The worker speaks MCP; the sandbox only starts the
 * processes and pipes their lines.
 */
public final class StdioMcpServers implements AutoCloseable {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,63}");

  private final Path workspace;
  private final Map<String, StdioMcpServer> servers = new HashMap<>();

  private final Supplier<Map<String, String>> environment;

  /**
   * @param environment variables bound late (a warm-pool sandbox's run's), under the server's own
   */
  public StdioMcpServers(Path workspace, Supplier<Map<String, String>> environment) {
    this.workspace = workspace;
    this.environment = environment;
  }

  /** Whether the named server was started now (false: the same one already runs). */
  public synchronized boolean start(String name, McpServerSpec spec) {
    requireName(name);
    StdioMcpServer running = servers.get(name);
    if (running != null && running.alive()) {
      if (!running.spec().equals(spec)) {
        throw FileApiException.conflict(
            "MCP server " + name + " runs with another command; delete it first");
      }
      return false;
    }
    if (running != null) {
      running.stop(); // exited: its reader, if any, sees the end; the new one takes the name
    }
    try {
      servers.put(name, StdioMcpServer.start(name, spec, workspace, environment.get()));
    } catch (IOException e) {
      throw FileApiException.badRequest("cannot start command: " + e.getMessage());
    }
    return true;
  }

  /** Writes one JSON-RPC message to the server's stdin, as one line. */
  public void send(String name, byte[] message) throws IOException {
    JsonNode parsed = JsonBody.object(message, "one JSON-RPC message");
    StdioMcpServer server = running(name);
    try {
      server.send(parsed.toString());
    } catch (IOException e) {
      throw FileApiException.conflict("MCP server " + name + " does not read its input any more");
    }
  }

  /** Refuses a name no server has (404), before anything is streamed. */
  public void requireKnown(String name) {
    find(name);
  }

  /**
   * Hands each line the server writes to {@code sink} until the server's stdout ends, this reader
   * is replaced by a newer one, or {@code sink} fails.
   */
  public void read(String name, LineSink sink) throws IOException {
    StdioMcpServer server = find(name);
    server.becomeReader();
    try {
      while (true) {
        var line = server.nextLine();
        if (line.isEmpty()) {
          return;
        }
        try {
          sink.accept(line.get());
        } catch (IOException broken) {
          server.giveBack(line.get());
          throw broken;
        }
      }
    } catch (InterruptedException replaced) {
      Thread.currentThread().interrupt();
    } finally {
      server.stopReading();
    }
  }

  /** Stops the named server. */
  public void stop(String name) {
    StdioMcpServer server;
    synchronized (this) {
      server = servers.remove(name);
    }
    if (server == null) {
      throw FileApiException.notFound("no MCP server named " + name);
    }
    server.stop();
  }

  @Override
  public void close() {
    List<StdioMcpServer> all;
    synchronized (this) {
      all = new ArrayList<>(servers.values());
      servers.clear();
    }
    all.forEach(StdioMcpServer::stop);
  }

  /** Where a reader's lines go. */
  @FunctionalInterface
  public interface LineSink {
    void accept(String line) throws IOException;
  }

  private StdioMcpServer running(String name) {
    StdioMcpServer server = find(name);
    if (!server.alive()) {
      throw FileApiException.conflict("MCP server " + name + " has exited");
    }
    return server;
  }

  private synchronized StdioMcpServer find(String name) {
    requireName(name);
    StdioMcpServer server = servers.get(name);
    if (server == null) {
      throw FileApiException.notFound("no MCP server named " + name);
    }
    return server;
  }

  private static void requireName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw FileApiException.badRequest(
          "the MCP server name must be 1 to 63 letters, digits, _ or -");
    }
  }
}
