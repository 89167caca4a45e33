package dev.threadline.local.e2e;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A webhook endpoint on loopback that records every request and answers with scripted statuses. */
final class WebhookReceiver implements AutoCloseable {
  /** One request as received: the three Standard Webhooks headers and the raw body. */
  record Received(String path, String id, String timestamp, String signature, String body) {}

  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<Integer>> statuses =
      new java.util.concurrent.ConcurrentHashMap<>();

  private WebhookReceiver(HttpServer server) {
    this.server = server;
  }

  static WebhookReceiver start() {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      WebhookReceiver receiver = new WebhookReceiver(server);
      server.createContext(
          "/",
          exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
              String path = exchange.getRequestURI().getPath();
              receiver.received.add(
                  new Received(
                      path,
                      exchange.getRequestHeaders().getFirst("webhook-id"),
                      exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                      exchange.getRequestHeaders().getFirst("webhook-signature"),
                      new String(in.readAllBytes(), StandardCharsets.UTF_8)));
              Deque<Integer> scripted = receiver.statuses.get(path);
              Integer status = scripted == null ? null : scripted.pollFirst();
              exchange.sendResponseHeaders(status == null ? 204 : status, -1);
            } finally {
              exchange.close();
            }
          });
      server.start();
      return receiver;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The URL of {@code path} on this receiver. */
  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** Answers the next requests to {@code path} with these statuses, then 204. */
  void answer(String path, Integer... statuses) {
    this.statuses.put(path, new ArrayDeque<>(List.of(statuses)));
  }

  List<Received> receivedAt(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
