package dev.threadline.operator.worker.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * What the worker's MCP client transports share: the server's messages, one JSON text each, handed
 * to the SDK's session — a text that is not a JSON-RPC message is dropped (the server is untrusted)
 * — and failures of a stream reported unless the transport is closing.
 */
abstract class McpMessageTransport implements McpClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(McpMessageTransport.class);

  final McpJsonMapper json;
  private final String serverName;
  private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;
  private volatile Consumer<Throwable> exceptionHandler = failure -> {};
  volatile boolean closing;

  McpMessageTransport(String serverName, McpJsonMapper json) {
    this.serverName = serverName;
    this.json = json;
  }

  /** Keeps the session's handler of the server's messages (given to {@code connect}). */
  final void handleWith(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    this.handler = handler;
  }

  /** Hands one message of the server (JSON text) to the session. */
  final void receive(String text) {
    JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(json, text);
    } catch (IOException | RuntimeException e) {
      LOG.debug("MCP server {} sent something that is not a JSON-RPC message", serverName);
      return;
    }
    received(message);
    handler.apply(Mono.just(message)).subscribe(reply -> {}, exceptionHandler);
  }

  /** Looks at a message of the server before the session gets it. */
  void received(JSONRPCMessage message) {}

  /** A stream that ended or broke while the transport was open. */
  final void failed(Throwable failure) {
    if (!closing) {
      exceptionHandler.accept(failure);
    }
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    this.exceptionHandler = handler;
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return json.convertValue(data, type);
  }
}
