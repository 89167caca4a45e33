package dev.threadline.local.e2e;

import dev.threadline.operator.support.LoopbackServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

/** A webhook endpoint on loopback that records every request and answers with scripted statuses. */
final class WebhookReceiver implements AutoCloseable {
  /** One request as received: the three Standard Webhooks headers and the raw body. */
  record Received(String path, String id, String timestamp, String signature, String body) {}

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<Integer>> statuses = new ConcurrentHashMap<>();
  private final LoopbackServer server;

  private WebhookReceiver() {
    server =
        LoopbackServer.start(exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            String path = exchange.getRequestURI().getPath();
            received.add(
                new Received(
                    path,
                    exchange.getRequestHeaders().getFirst("webhook-id"),
                    exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                    exchange.getRequestHeaders().getFirst("webhook-signature"),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            Deque<Integer> scripted = statuses.get(path);
            Integer status = scripted == null ? null : scripted.pollFirst();
            exchange.sendResponseHeaders(status == null ? 204 : status, -1);
          }
        });
  }

  static WebhookReceiver start() {
    return new WebhookReceiver();
  }

  /** The URL of {@code path} on this receiver. */
  String url(String path) {
    return server.url(path);
  }

  /** Answers the next requests to {@code path} with these statuses, then 204. */
  void answer(String path, Integer... statuses) {
    this.statuses.put(path, new ConcurrentLinkedDeque<>(List.of(statuses)));
  }

  List<Received> receivedAt(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  @Override
  public void close() {
    server.close();
  }
}
