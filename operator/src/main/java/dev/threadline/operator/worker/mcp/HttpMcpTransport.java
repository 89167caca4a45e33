package dev.threadline.operator.worker.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.io.CloseMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * What the worker's two http MCP transports share: requests through a {@link
 * dev.threadline.operator.network.UserUrlClients} client (so only checked addresses are connected
 * to), the bearer token on every request (never logged), and the server's messages handed to the
 * SDK's session. A message from the server that is not JSON-RPC is dropped.
 */
abstract class HttpMcpTransport implements McpClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(HttpMcpTransport.class);
  static final ContentType JSON_TYPE = ContentType.APPLICATION_JSON;

  private final CloseableHttpClient http;
  private final String bearerToken;
  private final String serverName;
  final McpJsonMapper json;
  private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;
  private volatile Consumer<Throwable> exceptionHandler = failure -> {};
  volatile boolean closing;

  HttpMcpTransport(
      CloseableHttpClient http, String bearerToken, String serverName, McpJsonMapper json) {
    this.http = http;
    this.bearerToken = bearerToken == null || bearerToken.isBlank() ? null : bearerToken.strip();
    this.serverName = serverName;
    this.json = json;
  }

  /** Keeps the session's handler; what else connecting means is the transport's own. */
  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    this.handler = handler;
    return Mono.fromRunnable(this::connected).then().subscribeOn(Schedulers.boundedElastic());
  }

  /** Runs once the handler is set, off the caller's thread. */
  abstract void connected();

  @Override
  public Mono<Void> sendMessage(JSONRPCMessage message) {
    return Mono.<Void>fromRunnable(() -> send(message)).subscribeOn(Schedulers.boundedElastic());
  }

  /** Sends one message and handles the answer, blocking. */
  abstract void send(JSONRPCMessage message);

  /** Stops what the transport started (a stream, a session), before the client closes. */
  abstract void closing();

  /** Opens the request with the bearer token and {@code headers}; the caller closes the answer. */
  final ClassicHttpResponse open(HttpUriRequestBase request, Map<String, String> headers) {
    if (bearerToken != null) {
      request.setHeader("Authorization", "Bearer " + bearerToken);
    }
    headers.forEach(request::setHeader);
    try {
      return http.executeOpen(RoutingSupport.determineHost(request), request, null);
    } catch (HttpException e) {
      throw new IllegalStateException("the MCP server's url cannot be called: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  final String body(JSONRPCMessage message) {
    try {
      return json.writeValueAsString(message);
    } catch (IOException e) {
      throw new IllegalStateException("an MCP message did not serialise", e);
    }
  }

  static StringEntity jsonEntity(String body) {
    return new StringEntity(body, JSON_TYPE);
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
  final void streamFailed(Throwable failure) {
    if (!closing) {
      exceptionHandler.accept(failure);
    }
  }

  static String failure(ClassicHttpResponse response) {
    return "the MCP server answered HTTP " + response.getCode();
  }

  static void closeQuietly(ClassicHttpResponse response) {
    try {
      response.close();
    } catch (IOException ignored) {
      // the answer is not needed any more
    }
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.<Void>fromRunnable(
            () -> {
              closing = true;
              try {
                closing();
              } finally {
                http.close(CloseMode.IMMEDIATE); // ends reads still blocked on a stream
              }
            })
        .subscribeOn(Schedulers.boundedElastic());
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
