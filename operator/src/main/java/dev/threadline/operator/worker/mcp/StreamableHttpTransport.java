package dev.threadline.operator.worker.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpDelete;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * The MCP streamable HTTP transport, as a client: every message is a POST to the server's endpoint;
 * the answer is nothing (202), one JSON message, or a stream of server-sent events carrying
 * messages, read on a virtual thread. The session id the server hands out is sent back on every
 * request and ended with a DELETE when the transport closes. The worker only calls tools, so it
 * opens no GET stream for messages the server would start on its own.
 */
final class StreamableHttpTransport extends HttpMcpTransport {
  private static final String ACCEPT = "application/json, text/event-stream";
  private static final String INITIALIZE = "initialize";

  private final URI endpoint;
  private volatile String sessionId;
  private volatile Object initializeId;
  private volatile String protocolVersion;

  StreamableHttpTransport(
      CloseableHttpClient http,
      URI endpoint,
      String bearerToken,
      String serverName,
      McpJsonMapper json) {
    super(http, bearerToken, serverName, json);
    this.endpoint = endpoint;
  }

  @Override
  public List<String> protocolVersions() {
    return List.of(
        ProtocolVersions.MCP_2025_03_26,
        ProtocolVersions.MCP_2025_06_18,
        ProtocolVersions.MCP_2025_11_25);
  }

  @Override
  void connected() {}

  @Override
  void send(JSONRPCMessage message) {
    if (message instanceof JSONRPCRequest request && INITIALIZE.equals(request.method())) {
      initializeId = request.id();
    }
    HttpPost post = new HttpPost(endpoint);
    post.setEntity(entity(message));
    ClassicHttpResponse response = open(post, headers(ACCEPT));
    boolean streaming = false;
    try {
      Header session = response.getFirstHeader(HttpHeaders.MCP_SESSION_ID);
      if (session != null && !session.getValue().isBlank()) {
        sessionId = session.getValue();
      }
      int status = response.getCode();
      if (status == 404 && sessionId != null) {
        throw new IllegalStateException("the MCP server ended the session (HTTP 404)");
      }
      if (status < 200 || status >= 300) {
        throw new IllegalStateException(failure(response));
      }
      if (status == 202 || status == 204 || response.getEntity() == null) {
        return;
      }
      ContentType type = ContentType.parseLenient(response.getEntity().getContentType());
      if (type != null && "text/event-stream".equalsIgnoreCase(type.getMimeType())) {
        streaming = true;
        Thread.ofVirtual().name("mcp-stream").start(() -> readEvents(response));
      } else {
        receive(EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (org.apache.hc.core5.http.ParseException e) {
      throw new IllegalStateException("the MCP server's answer could not be read", e);
    } finally {
      if (!streaming) {
        closeQuietly(response);
      }
    }
  }

  private void readEvents(ClassicHttpResponse response) {
    try (response) {
      SseEvents.read(
          response.getEntity().getContent(),
          event -> {
            if (event.type().equals("message") && !event.data().isBlank()) {
              receive(event.data());
            }
          });
    } catch (IOException e) {
      failed(e);
    }
  }

  /** Learns the protocol version from the answer to {@code initialize}, for the later headers. */
  @Override
  void received(JSONRPCMessage message) {
    if (message instanceof JSONRPCResponse response
        && initializeId != null
        && initializeId.equals(response.id())
        && response.result() != null) {
      McpSchema.InitializeResult result =
          json.convertValue(response.result(), McpSchema.InitializeResult.class);
      protocolVersion = result.protocolVersion();
    }
  }

  private Map<String, String> headers(String accept) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(HttpHeaders.ACCEPT, accept);
    if (sessionId != null) {
      headers.put(HttpHeaders.MCP_SESSION_ID, sessionId);
    }
    if (protocolVersion != null) {
      headers.put(HttpHeaders.PROTOCOL_VERSION, protocolVersion);
    }
    return headers;
  }

  /** Ends the server's session; a server that keeps none, or has gone, is fine. */
  @Override
  void closing() {
    if (sessionId == null) {
      return;
    }
    try {
      closeQuietly(open(new HttpDelete(endpoint), headers(ACCEPT)));
    } catch (RuntimeException e) {
      // the session ends with the server's own timeout then
    }
  }
}
