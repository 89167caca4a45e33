package dev.threadline.benchmarks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A webhook receiver on loopback that measures, for each message, the time from the run's end (the
 * {@code completedAt} the payload carries, taken from the operator's clock on this machine) to the
 * signed POST's arrival: the run's final status seen by the operator, the delivery queued as a
 * resource, seen again, and sent.
 */
final class WebhookDelays implements AutoCloseable {
  private static final Pattern COMPLETED_AT =
      Pattern.compile("\"completedAt\"\\s*:\\s*\"([^\"]+)\"");

  private final HttpServer server;
  private final BlockingQueue<Double> delays = new LinkedBlockingQueue<>();

  private WebhookDelays(HttpServer server) {
    this.server = server;
  }

  static WebhookDelays start() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    WebhookDelays receiver = new WebhookDelays(server);
    server.createContext(
        "/",
        exchange -> {
          Instant arrived = Instant.now();
          try (InputStream in = exchange.getRequestBody()) {
            Matcher completedAt =
                COMPLETED_AT.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (completedAt.find()) {
              receiver.delays.add(
                  Duration.between(Instant.parse(completedAt.group(1)), arrived).toNanos() / 1e6);
            }
            exchange.sendResponseHeaders(204, -1);
          } finally {
            exchange.close();
          }
        });
    server.start();
    return receiver;
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /** The delay of the next message to arrive. */
  double next() throws InterruptedException {
    Double delay = delays.poll(30, TimeUnit.SECONDS);
    if (delay == null) {
      throw new IllegalStateException("no webhook arrived within 30 s");
    }
    return delay;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
