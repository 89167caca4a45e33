package dev.threadline.operator.worker.mcp;

import dev.threadline.operator.worker.SandboxAddress;
import dev.threadline.operator.worker.SandboxAnswers;
import dev.threadline.operator.worker.SandboxClient;
import dev.threadline.operator.worker.SandboxException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * An MCP client transport to a stdio server that runs in the sandbox, over its piping endpoints
 * (docs/sandbox-api.md): {@code PUT /mcp/{name}} starts it, each message is a {@code POST} to its
 * stdin, a streamed {@code GET} reads its stdout a line a message, {@code DELETE} stops it. The
 * server's lines are untrusted: one that is not a JSON-RPC message is dropped.
 */
final class SandboxStdioTransport extends McpMessageTransport {
  private final SandboxClient client;
  private final SandboxAddress sandbox;
  private final String name;
  private final String command;
  private final List<String> args;
  private final AtomicReference<InputStream> stdout = new AtomicReference<>();

  /** Done once the server runs and its stdout is read: the SDK sends without awaiting connect. */
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  SandboxStdioTransport(
      SandboxClient client,
      SandboxAddress sandbox,
      String name,
      String command,
      List<String> args,
      McpJsonMapper json) {
    super(name, json);
    this.client = client;
    this.sandbox = sandbox;
    this.name = name;
    this.command = command;
    this.args = List.copyOf(args);
  }

  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    handleWith(handler);
    return Mono.<Void>fromRunnable(
            () -> {
              try {
                client.startMcp(sandbox, name, command, args, Map.of());
                stdout.set(client.mcpMessages(sandbox, name));
              } catch (RuntimeException e) {
                ready.completeExceptionally(e);
                throw e;
              }
              Thread.ofVirtual().name("mcp-" + name).start(this::read);
              ready.complete(null);
            })
        .subscribeOn(Schedulers.boundedElastic());
  }

  private void read() {
    try (InputStream stream = stdout.get()) {
      SandboxAnswers.Lines lines =
          new SandboxAnswers.Lines(
              "GET /mcp/" + name + "/messages",
              stream,
              SandboxAnswers.MCP_LINE_BYTES,
              Long.MAX_VALUE);
      for (String line = lines.next(); line != null; line = lines.next()) {
        if (!line.isBlank()) {
          receive(line);
        }
      }
    } catch (IOException | SandboxException e) {
      failed(e);
    }
  }

  @Override
  public Mono<Void> sendMessage(JSONRPCMessage message) {
    return Mono.fromFuture(ready)
        .then(
            Mono.<Void>fromRunnable(() -> {
              try {
                client.postMcp(sandbox, name, json.writeValueAsString(message));
              } catch (IOException e) {
                throw new IllegalStateException("an MCP message did not serialise", e);
              }
            }))
        .subscribeOn(Schedulers.boundedElastic());
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.<Void>fromRunnable(
            () -> {
              closing = true;
              ready.cancel(false);
              InputStream open = stdout.getAndSet(null);
              try {
                client.stopMcp(sandbox, name);
              } finally {
                closeQuietly(open);
              }
            })
        .subscribeOn(Schedulers.boundedElastic());
  }

  private static void closeQuietly(InputStream stream) {
    if (stream == null) {
      return;
    }
    try {
      stream.close();
    } catch (IOException ignored) {
      // the server is stopped either way
    }
  }
}
