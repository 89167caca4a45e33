package dev.threadline.benchmarks;

import com.sun.net.httpserver.HttpServer;
import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * What the instrumentation costs a request: two local modes side by side in this JVM, one with
 * traces exported by OTLP to a receiver on loopback (which accepts and drops them), one with the
 * SDK disabled, and the same requests sent to each in turn (which one goes first alternates), so
 * that the JIT's warmth and the machine's load fall on both alike.
 */
final class TracingOverhead {
  /** One local mode's figures. */
  record Figures(Percentiles direct, Percentiles responseStarted) {}

  /**
   * @param exportRequests the OTLP export requests the receiver got (the spans came in batches)
   */
  record Result(Figures on, Figures off, long exportRequests) {}

  private static final String GREETING =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
  private static final String TASK =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo one`\"}]}";

  private TracingOverhead() {}

  static Result measure(String key, int warmup, int iterations, int computerIterations)
      throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    try (Sink sink = Sink.start();
        LocalMode on =
            start(
                key,
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", sink.url(), "OTEL_BSP_SCHEDULE_DELAY", "200"));
        LocalMode off = start(key, Map.of("OTEL_SDK_DISABLED", "true"))) {
      Alternation both =
          new Alternation(http, key, on.apiUrl() + "/v1/threads", off.apiUrl() + "/v1/threads");
      both.measure(GREETING, "direct.response", warmup);
      Samples direct = both.measure(GREETING, "direct.response", iterations);
      both.measure(TASK, "response.started", 1);
      Samples started = both.measure(TASK, "response.started", computerIterations);
      return new Result(
          new Figures(Percentiles.of(direct.on()), Percentiles.of(started.on())),
          new Figures(Percentiles.of(direct.off()), Percentiles.of(started.off())),
          sink.requests.get());
    }
  }

  private static LocalMode start(String key, Map<String, String> variables) throws IOException {
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.putAll(variables);
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(Files.createTempDirectory("threadline-bench-traces"))
            .withApiKeys(Map.of(key, "bench"));
    return LocalMode.start(settings, environment, UnaryOperator.identity());
  }

  /** Milliseconds to an event of the same request, with traces on and off. */
  private record Samples(List<Double> on, List<Double> off) {}

  /** The same request sent to both local modes in turn, which one first alternating. */
  private record Alternation(HttpClient http, String key, String onUrl, String offUrl) {
    Samples measure(String body, String event, int times) throws Exception {
      Samples samples = new Samples(new ArrayList<>(), new ArrayList<>());
      for (int i = 0; i < times; i++) {
        if (i % 2 == 0) {
          samples.on().add(time(onUrl, body, event));
          samples.off().add(time(offUrl, body, event));
        } else {
          samples.off().add(time(offUrl, body, event));
          samples.on().add(time(onUrl, body, event));
        }
      }
      return samples;
    }

    private double time(String url, String body, String event) throws Exception {
      return LatencyBenchmark.require(SseTimings.post(http, url, key, body), event);
    }
  }

  /** An OTLP/HTTP endpoint on loopback that accepts every export and counts them. */
  private record Sink(HttpServer server, AtomicLong requests) implements AutoCloseable {
    static Sink start() throws IOException {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      Sink sink = new Sink(server, new AtomicLong());
      server.createContext(
          "/v1/traces",
          exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
              in.readAllBytes();
              sink.requests.incrementAndGet();
              exchange.sendResponseHeaders(200, -1);
            } finally {
              exchange.close();
            }
          });
      server.start();
      return sink;
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
