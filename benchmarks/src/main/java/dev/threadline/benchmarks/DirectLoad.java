package dev.threadline.benchmarks;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** The direct path as clients load it: greetings one after another, or many clients at once. */
final class DirectLoad {
  static final String GREETING = "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";

  private DirectLoad() {}

  /** POST /v1/threads → {@code direct.response} of {@code count} greetings one after another. */
  static List<Double> sequential(HttpClient http, String threadsUrl, String key, int count)
      throws Exception {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      samples.add(directResponse(SseTimings.post(http, threadsUrl, key, GREETING)));
    }
    return samples;
  }

  /** Direct runs answered per second with {@code clients} clients posting greetings. */
  static double throughput(String threadsUrl, String key, int clients, Duration window)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    AtomicInteger answered = new AtomicInteger();
    Instant end = Instant.now().plus(window);
    long start = System.nanoTime();
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        running.add(
            pool.submit(() -> {
              HttpClient http = HttpClient.newHttpClient();
              while (Instant.now().isBefore(end)) {
                directResponse(SseTimings.post(http, threadsUrl, key, GREETING));
                answered.incrementAndGet();
              }
              return null;
            }));
      }
      for (Future<?> client : running) {
        client.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return answered.get() / ((System.nanoTime() - start) / 1e9);
  }

  /** When the stream's {@code direct.response} arrived, in ms after the POST. */
  static double directResponse(SseTimings timings) {
    Double at = timings.firstEventMillis.get("direct.response");
    if (at == null) {
      throw new IllegalStateException(
          "the stream had no direct.response; it had " + timings.firstEventMillis.keySet());
    }
    return at;
  }
}
