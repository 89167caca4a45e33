package dev.threadline.operator.worker.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Function;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.io.CloseMode;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The worker's two http MCP transports: requests through a {@link
 * dev.threadline.operator.network.UserUrlClients} client (so only checked addresses are connected
 * to), with the bearer token on every request (never logged).
 */
abstract class HttpMcpTransport extends McpMessageTransport {
  private final CloseableHttpClient http;
  private final String bearerToken;

  HttpMcpTransport(
      CloseableHttpClient http, String bearerToken, String serverName, McpJsonMapper json) {
    super(serverName, json);
    this.http = http;
    this.bearerToken = bearerToken == null || bearerToken.isBlank() ? null : bearerToken.strip();
  }

  /** Keeps the session's handler; what else connecting means is the transport's own. */
  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    handleWith(handler);
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

  /** The message as a JSON request body. */
  final StringEntity entity(JSONRPCMessage message) {
    try {
      return new StringEntity(json.writeValueAsString(message), ContentType.APPLICATION_JSON);
    } catch (IOException e) {
      throw new IllegalStateException("an MCP message did not serialise", e);
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
}
