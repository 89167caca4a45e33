package dev.threadline.operator.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.operator.http.Responses;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP server on 127.0.0.1 at a free port, for the stand-ins tests put in place of what
 * Threadline calls (a model endpoint, a webhook receiver, an OTLP collector). Each exchange runs on
 * its own virtual thread, so a handler may pace its answer with sleeps; the exchange is closed
 * after the handler, and a client that hung up meanwhile is no failure.
 */
public final class LoopbackServer implements AutoCloseable {
  /** Answers one exchange; the server closes it afterwards. */
  @FunctionalInterface
  public interface Handler {
    void handle(HttpExchange exchange) throws IOException, InterruptedException;
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private LoopbackServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Serves every path with {@code handler}. */
  public static LoopbackServer start(Handler handler) {
    return start("/", handler);
  }

  /** Serves {@code path} and what lies below it with {@code handler}. */
  public static LoopbackServer start(String path, Handler handler) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    server.createContext(path, exchange -> serve(handler, exchange));
    server.start();
    return new LoopbackServer(server, executor);
  }

  private static void serve(Handler handler, HttpExchange exchange) {
    try (exchange) {
      handler.handle(exchange);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // The client hung up (or timed out): nothing left to answer.
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:<port>}, no trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  /** The URL of {@code path} on this server. */
  public String url(String path) {
    return baseUrl() + path;
  }

  /** A whole answer (see {@link Responses}). */
  public static void respond(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    Responses.send(exchange, status, contentType, body);
  }

  /** A whole answer in bytes; an empty one is sent as no body. */
  public static void respond(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    Responses.send(exchange, status, contentType, body);
  }

  /** Starts a {@code text/event-stream} answer whose events go out as they are sent. */
  public static EventStream eventStream(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    return new EventStream(exchange.getResponseBody());
  }

  /** An SSE answer in progress. */
  public static final class EventStream {
    private final OutputStream out;

    private EventStream(OutputStream out) {
      this.out = out;
    }

    /** One event: its lines (e.g. {@code data: {...}}), then the blank line; flushed at once. */
    public void send(String event) throws IOException {
      out.write((event + "\n\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
