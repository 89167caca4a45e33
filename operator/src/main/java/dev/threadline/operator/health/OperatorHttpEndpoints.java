package dev.threadline.operator.health;

import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.operator.deltas.DeltaEndpoint;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.http.Responses;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The operator's small HTTP face for the kubelet and Prometheus: {@code /healthz} (alive), {@code
 * /readyz} (started and every informer healthy) and {@code /metrics}; and for the api-server, the
 * live channel of runs that stream tokens ({@link DeltaEndpoint}, token-protected).
 */
public final class OperatorHttpEndpoints implements AutoCloseable {
  private final HttpServer server;

  private OperatorHttpEndpoints(HttpServer server) {
    this.server = server;
  }

  public static OperatorHttpEndpoints start(
      InetSocketAddress address,
      Supplier<RuntimeInfo> runtime,
      PrometheusMeterRegistry metrics,
      DeltaHub deltas)
      throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/healthz", exchange -> Responses.send(exchange, 200, "text/plain", "ok"));
    server.createContext(
        "/readyz",
        exchange -> {
          RuntimeInfo info = runtime.get();
          boolean ready = info != null && info.isStarted() && info.allEventSourcesAreHealthy();
          Responses.send(
              exchange,
              ready ? 200 : 503,
              "text/plain",
              ready
                  ? "ok"
                  : "not ready: "
                      + (info == null || !info.isStarted()
                          ? "operator not started"
                          : "unhealthy event sources " + info.unhealthyEventSources().keySet()));
        });
    server.createContext(
        "/metrics",
        exchange ->
            Responses.send(
                exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape()));
    server.createContext(DeltaWire.PATH, new DeltaEndpoint(deltas));
    server.start();
    return new OperatorHttpEndpoints(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
