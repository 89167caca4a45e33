package dev.threadline.operator.worker.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;

/**
 * The older MCP HTTP+SSE transport (protocol 2024-11-05), as a client: a GET opens the server's
 * event stream, whose first {@code endpoint} event names where messages are POSTed; the server's
 * messages arrive as {@code message} events on the stream. The endpoint must be on the stream's own
 * origin: the bearer token goes nowhere else.
 */
final class SseHttpTransport extends HttpMcpTransport {
  private final URI stream;
  private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
  private final HttpGet listening;

  SseHttpTransport(
      CloseableHttpClient http,
      URI stream,
      String bearerToken,
      String serverName,
      McpJsonMapper json) {
    super(http, bearerToken, serverName, json);
    this.stream = stream;
    this.listening = new HttpGet(stream);
  }

  @Override
  void connected() {
    Thread.ofVirtual().name("mcp-sse").start(this::listen);
  }

  private void listen() {
    try {
      ClassicHttpResponse response =
          open(listening, Map.of(HttpHeaders.ACCEPT, "text/event-stream"));
      try {
        if (response.getCode() != 200 || response.getEntity() == null) {
          throw new IllegalStateException(failure(response));
        }
        SseEvents.read(response.getEntity().getContent(), this::event);
      } finally {
        // Aborted first: closing the answer alone would read the rest of the stream.
        listening.cancel();
        closeQuietly(response);
      }
      endpoint.completeExceptionally(
          new IllegalStateException("the MCP server's event stream ended"));
      failed(new IOException("the MCP server's event stream ended"));
    } catch (IOException | RuntimeException e) {
      endpoint.completeExceptionally(e);
      failed(e);
    }
  }

  private void event(SseEvents.Event event) {
    switch (event.type()) {
      case "endpoint" -> {
        URI target = stream.resolve(event.data().strip());
        if (!sameOrigin(stream, target)) {
          throw new IllegalStateException("the MCP server named an endpoint on another origin");
        }
        endpoint.complete(target);
      }
      case "message" -> receive(event.data());
      default -> {}
    }
  }

  private static boolean sameOrigin(URI a, URI b) {
    return Objects.equals(a.getScheme(), b.getScheme())
        && Objects.equals(a.getHost(), b.getHost())
        && a.getPort() == b.getPort();
  }

  @Override
  void send(JSONRPCMessage message) {
    URI target;
    try {
      target = endpoint.join();
    } catch (CompletionException | CancellationException e) {
      throw new IllegalStateException(
          "the MCP server's event stream did not name an endpoint",
          e.getCause() == null ? e : e.getCause());
    }
    HttpPost post = new HttpPost(target);
    post.setEntity(entity(message));
    ClassicHttpResponse response = open(post, Map.of());
    try (response) {
      if (response.getCode() < 200 || response.getCode() >= 300) {
        throw new IllegalStateException(failure(response));
      }
    } catch (IOException e) {
      // the answer's body is not needed; the message was taken
    }
  }

  @Override
  void closing() {
    endpoint.cancel(false);
    // Not a close of the answer: that would read the stream to its end first.
    listening.cancel();
  }
}
