package dev.threadline.runner.serve.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stdio MCP server process, piped: messages go to its stdin one per line, the lines it writes
 * on stdout wait in a bounded queue for the worker's reader. When nobody reads, the queue fills and
 * the server blocks on its stdout, as it would on a full pipe: no message is dropped. Its stderr
 * goes to the sandbox's log.
 */
final class StdioMcpServer {
  /** Lines held for the reader; past this the server waits. */
  static final int QUEUED_LINES = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(StdioMcpServer.class);
  private static final String END = new String("end of stdout");

  private final String name;
  private final McpServerSpec spec;
  private final Process process;
  private final OutputStream stdin;
  private final LinkedBlockingDeque<String> lines = new LinkedBlockingDeque<>(QUEUED_LINES);
  private final AtomicReference<Thread> reader = new AtomicReference<>();
  private Thread pump;

  private StdioMcpServer(String name, McpServerSpec spec, Process process) {
    this.name = name;
    this.spec = spec;
    this.process = process;
    this.stdin = process.getOutputStream();
  }

  static StdioMcpServer start(
      String name, McpServerSpec spec, Path workspace, Map<String, String> boundEnvironment)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(spec.command());
    command.addAll(spec.args());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workspace.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(boundEnvironment);
    builder.environment().putAll(spec.env());
    StdioMcpServer server = new StdioMcpServer(name, spec, builder.start());
    server.pump = Thread.ofVirtual().name("mcp-" + name + "-stdout").start(server::pump);
    return server;
  }

  McpServerSpec spec() {
    return spec;
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Writes one message (already a single line) to the server's stdin. */
  synchronized void send(String message) throws IOException {
    stdin.write((message + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /**
   * The next line the server wrote, waiting for it; empty once its stdout has ended. A newer reader
   * takes over from an older one (whose connection is most likely gone): the older one is
   * interrupted.
   */
  Optional<String> nextLine() throws InterruptedException {
    String line = lines.takeFirst();
    if (line == END) {
      lines.putFirst(END); // every later reader sees the end too
      return Optional.empty();
    }
    return Optional.of(line);
  }

  /** A line taken but not delivered (the reader's connection broke) goes back to the front. */
  void giveBack(String line) {
    lines.offerFirst(line);
  }

  /** Makes the calling thread the only reader. */
  void becomeReader() {
    Thread previous = reader.getAndSet(Thread.currentThread());
    if (previous != null && previous != Thread.currentThread()) {
      previous.interrupt();
    }
  }

  void stopReading() {
    reader.compareAndSet(Thread.currentThread(), null);
  }

  /** Stops the server and everything it started. */
  void stop() {
    List<ProcessHandle> tree =
        Stream.concat(Stream.of(process.toHandle()), process.descendants()).toList();
    tree.forEach(ProcessHandle::destroyForcibly);
    pump.interrupt(); // it may wait for room in the queue, which nobody will make
  }

  private void pump() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (!line.isBlank()) {
          lines.putLast(line);
        }
      }
    } catch (IOException e) {
      LOG.debug("MCP server {} stdout closed: {}", name, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        lines.putLast(END);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      LOG.info("MCP server {} closed its stdout", name);
    }
  }
}
