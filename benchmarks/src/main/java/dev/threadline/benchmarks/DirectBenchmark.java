package dev.threadline.benchmarks;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 31's measurements of the direct path, black-box: each build's packaged local mode (as
 * {@code ./threadline-local} runs it) in a JVM of its own, driven over HTTP by this process's Java
 * client, beside the floor measured in the same run on the same process. A "before" build given by
 * the path of its packaged worktree ({@code -Dbench.direct.before}) takes turns with this one.
 *
 * <p>Work is bounded by counts, never by time: {@code bench.direct.sequential} greetings one after
 * another, {@code bench.direct.concurrent} with {@code bench.direct.clients} clients, then more
 * with those clients until {@code bench.direct.runs} runs were made, when the resident memory is
 * read.
 */
public final class DirectBenchmark {
  private static final String KEY = "tl_direct_benchmark_key_0000000";
  private static final String USER = "alice";
  private static final int WARMUP = 200;
  private static final int FLOOR_SAMPLES = 200;

  private DirectBenchmark() {}

  record Settings(
      String before, int rounds, int sequential, int concurrent, int clients, int runs) {
    static Settings fromProperties() {
      return new Settings(
          System.getProperty("bench.direct.before", ""),
          Integer.getInteger("bench.direct.rounds", 2),
          Integer.getInteger("bench.direct.sequential", 500),
          Integer.getInteger("bench.direct.concurrent", 2000),
          Integer.getInteger("bench.direct.clients", 8),
          Integer.getInteger("bench.direct.runs", 10_000));
    }
  }

  /** One build's figures in one round. */
  record Row(
      String build,
      int round,
      Percentiles health,
      Percentiles fsync,
      Percentiles apiRoundTrip,
      Percentiles firstByte,
      Percentiles answer,
      double runsPerSecond,
      Percentiles loadedAnswer,
      double serviceCpuMsPerRun,
      double clientCpuMsPerRun,
      int runs,
      long residentMb,
      long residentMbAfterGc,
      String loadAverage) {}

  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "benchmarks/DIRECT-REPORT.md");
    Settings settings = Settings.fromProperties();
    List<LocalProcess.Installation> builds = new ArrayList<>();
    if (!settings.before().isBlank()) {
      builds.add(
          LocalProcess.Installation.packaged(
              "before: " + commitOf(settings.before()), Path.of(settings.before())));
    }
    builds.add(
        LocalProcess.Installation.packaged(
            "this build: " + commitOf("."), Path.of("").toAbsolutePath()));
    List<Row> rows = new ArrayList<>();
    for (int round = 1; round <= settings.rounds(); round++) {
      for (LocalProcess.Installation build : builds) {
        Row row = measure(build, round, settings);
        System.err.println("direct benchmark: " + row);
        rows.add(row);
      }
    }
    write(report, DirectReport.render(settings, rows));
  }

  /** The hand-written part of the report (the profile's findings) is kept from here on. */
  static final String KEPT_SECTION = "## Where the time goes";

  private static void write(Path report, String generated) throws IOException {
    String existing = Files.exists(report) ? Files.readString(report) : "";
    int kept = existing.indexOf(KEPT_SECTION);
    Files.writeString(
        report,
        generated.stripTrailing() + "\n" + (kept < 0 ? "" : "\n" + existing.substring(kept)));
  }

  private static Row measure(LocalProcess.Installation build, int round, Settings settings)
      throws Exception {
    Path dataDir = Files.createTempDirectory("threadline-direct");
    Map<String, String> env = LocalProcess.users(Map.of(KEY, USER));
    // The load is one user's: neither the per-key rate limit nor the object limits are measured.
    env.put("THREADLINE_RATELIMIT_ENABLED", "false");
    env.put("THREADLINE_LIMITS_THREADS", "1000000");
    env.put("THREADLINE_LIMITS_RUNS", "1000000");
    env.put("THREADLINE_LIMITS_HISTORYBYTES", "1TB");
    try (LocalProcess local = LocalProcess.start(build, dataDir, env)) {
      HttpClient http = HttpClient.newHttpClient();
      String threads = local.apiUrl() + "/v1/threads";
      awaitReady(http, threads);
      AtomicInteger made = new AtomicInteger();

      for (int i = 0; i < WARMUP; i++) {
        SseTimings.post(http, threads, KEY, DirectLoad.GREETING);
        made.incrementAndGet();
      }
      concurrent(threads, settings.clients(), WARMUP, made);

      Percentiles health = Percentiles.of(health(http, local.apiUrl() + "/health"));
      Percentiles fsync = Percentiles.of(fsync(dataDir));
      Percentiles apiRoundTrip;
      Config config = Config.fromKubeconfig(Files.readString(dataDir.resolve("kubeconfig")));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        apiRoundTrip = Percentiles.of(ApiRoundTrip.measure(client, USER, FLOOR_SAMPLES));
      }

      List<Double> firstBytes = new ArrayList<>();
      List<Double> answers = new ArrayList<>();
      for (int i = 0; i < settings.sequential(); i++) {
        SseTimings timings = SseTimings.post(http, threads, KEY, DirectLoad.GREETING);
        made.incrementAndGet();
        firstBytes.add(timings.firstByteMillis);
        answers.add(DirectLoad.directResponse(timings));
      }

      double serviceCpu = local.cpuSeconds();
      double clientCpu = clientCpuSeconds();
      long start = System.nanoTime();
      List<Double> loaded = concurrent(threads, settings.clients(), settings.concurrent(), made);
      double seconds = (System.nanoTime() - start) / 1e9;
      double serviceCpuMs = (local.cpuSeconds() - serviceCpu) * 1000 / loaded.size();
      double clientCpuMs = (clientCpuSeconds() - clientCpu) * 1000 / loaded.size();

      concurrent(threads, settings.clients(), Math.max(0, settings.runs() - made.get()), made);
      long resident = local.residentMb();
      return new Row(
          build.label(),
          round,
          health,
          fsync,
          apiRoundTrip,
          Percentiles.of(firstBytes),
          Percentiles.of(answers),
          loaded.size() / seconds,
          Percentiles.of(loaded),
          serviceCpuMs,
          clientCpuMs,
          made.get(),
          resident,
          local.residentMbAfterGc(),
          HistoryBenchmark.loadAverage());
    } finally {
      HistoryBenchmark.deleteTree(dataDir);
    }
  }

  /**
   * {@code count} greetings shared by {@code clients} clients, each with its own HTTP client; POST
   * → {@code direct.response} of each.
   */
  static List<Double> concurrent(String threads, int clients, int count, AtomicInteger made)
      throws Exception {
    List<Double> answers = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger left = new AtomicInteger(count);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        running.add(
            pool.submit(() -> {
              HttpClient http = HttpClient.newHttpClient();
              while (left.getAndDecrement() > 0) {
                answers.add(
                    DirectLoad.directResponse(
                        SseTimings.post(http, threads, KEY, DirectLoad.GREETING)));
                made.incrementAndGet();
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
    return answers;
  }

  /** The bare HTTP round trip: the API server's unauthenticated health check. */
  private static List<Double> health(HttpClient http, String url) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).build();
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < FLOOR_SAMPLES + 20; i++) {
      long start = System.nanoTime();
      HttpResponse<Void> answer = http.send(request, HttpResponse.BodyHandlers.discarding());
      if (answer.statusCode() != 200) {
        throw new IllegalStateException(url + " answered " + answer.statusCode());
      }
      if (i >= 20) {
        samples.add((System.nanoTime() - start) / 1e6);
      }
    }
    return samples;
  }

  /** A write of 4 KiB and its flush to the disk, on the file system of the data folder. */
  private static List<Double> fsync(Path dataDir) throws IOException {
    Path file = dataDir.resolve("fsync-floor");
    List<Double> samples = new ArrayList<>();
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer block = ByteBuffer.allocate(4096);
      for (int i = 0; i < FLOOR_SAMPLES; i++) {
        block.clear();
        long start = System.nanoTime();
        channel.write(block, (long) (i % 16) * 4096);
        channel.force(false);
        samples.add((System.nanoTime() - start) / 1e6);
      }
    } finally {
      Files.deleteIfExists(file);
    }
    return samples;
  }

  /** This process's CPU time so far (the client's own cost). */
  private static double clientCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  /** Until the API server answers (503 while its caches load). */
  private static void awaitReady(HttpClient http, String threads) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    HttpRequest list =
        HttpRequest.newBuilder(URI.create(threads + "?limit=1"))
            .header("Authorization", "Bearer " + KEY)
            .build();
    while (http.send(list, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the API server did not become ready");
      }
      Thread.sleep(200);
    }
  }

  /** The commit a worktree is at; its folder's name when it is not one (a copied package). */
  private static String commitOf(String root) throws Exception {
    Process git =
        new ProcessBuilder("git", "-C", root, "log", "-1", "--format=%h")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String line = new String(git.getInputStream().readAllBytes()).strip();
    if (git.waitFor() != 0 || line.isEmpty()) {
      return Path.of(root).toAbsolutePath().normalize().getFileName().toString();
    }
    return line;
  }

  /** The report's text: what was run, then every row of issue 31 beside its target and floor. */
  static final class DirectReport {
    private DirectReport() {}

    static String render(Settings settings, List<Row> rows) {
      StringBuilder out = new StringBuilder("# The direct path at the floor (issue 31)\n\n");
      out.append(Percentiles.provenance("./mvnw -q -pl benchmarks -am verify -Pbench-direct"))
          .append(
              String.format(
                  Locale.ROOT,
                  " Each build's packaged local mode (`local/target`) ran as its own process on a"
                      + " fresh data folder, one user, the rate limit off; the client is this"
                      + " benchmark's JVM (Java's `HttpClient`, one per client, HTTP/1.1, its"
                      + " connections as the client keeps them), a separate process on the same"
                      + " cores. %d greetings one client and %d with %d clients not counted; then"
                      + " the floor; %d greetings one after another (POST /v1/threads → first"
                      + " byte, → `direct.response`); %d with %d clients; then more with %d"
                      + " clients until %d runs were made, when the resident memory is read. %d"
                      + " round(s), the builds taking turns.%n%n",
                  WARMUP,
                  WARMUP,
                  settings.clients(),
                  settings.sequential(),
                  settings.concurrent(),
                  settings.clients(),
                  settings.clients(),
                  settings.runs(),
                  settings.rounds()));
      out.append("## Issue 31's rows\n\n")
          .append("| build | round | first byte median ms | answer median / p99 ms |")
          .append(" ")
          .append(settings.clients())
          .append(" clients runs/s | ")
          .append(settings.clients())
          .append(" clients answer median / p99 ms | RSS MB after runs (after GC) |")
          .append(" load average |\n|---|---|---|---|---|---|---|---|\n");
      out.append(
          "| target (issue 31) | | ≤ 5 | ≤ 22 / ≤ 60 | ≥ 100 | ≤ 60 median | ≤ 400 after 10,000 |"
              + " |\n");
      for (Row row : rows) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.2f | %.2f / %.2f | %.1f | %.2f / %.2f | %d (%d) after %d | %s |%n",
                row.build(),
                row.round(),
                row.firstByte().median(),
                row.answer().median(),
                row.answer().p99(),
                row.runsPerSecond(),
                row.loadedAnswer().median(),
                row.loadedAnswer().p99(),
                row.residentMb(),
                row.residentMbAfterGc(),
                row.runs(),
                row.loadAverage()));
      }
      out.append("\n## The floor, measured in the same run\n\n")
          .append("| build | round | GET /health median / p99 ms | fsync 4 KiB median / p99 ms |")
          .append(" embedded API create → watch median / p99 ms |\n|---|---|---|---|---|\n");
      for (Row row : rows) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |%n",
                row.build(),
                row.round(),
                row.health().median(),
                row.health().p99(),
                row.fsync().median(),
                row.fsync().p99(),
                row.apiRoundTrip().median(),
                row.apiRoundTrip().p99()));
      }
      out.append("\n## CPU per run under ")
          .append(settings.clients())
          .append(" clients\n\n")
          .append("The service's JVM from `/proc/<pid>/stat`, the client's from its own JVM.\n\n")
          .append("| build | round | service CPU ms per run | client CPU ms per run |\n")
          .append("|---|---|---|---|\n");
      for (Row row : rows) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.2f | %.2f |%n",
                row.build(),
                row.round(),
                row.serviceCpuMsPerRun(),
                row.clientCpuMsPerRun()));
      }
      return out.toString();
    }
  }
}
