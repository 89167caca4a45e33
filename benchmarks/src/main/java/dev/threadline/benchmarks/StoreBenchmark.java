package dev.threadline.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.StoreOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The local mode's object store under load: the direct path's latency and throughput with an empty
 * store and with 10,000 and 100,000 stored threads (written into the store directly, in batches,
 * while the local mode is stopped), a list of 100 threads, and the JVM's resident memory. Writes a
 * "Store" section into the report.
 *
 * <p>Run with {@code ./mvnw -q -pl benchmarks -am verify -Pbench-store -DskipTests}.
 */
public final class StoreBenchmark {
  private static final String KEY = "tl_benchmark_key_000000000000";
  private static final String GREETING = DirectLoad.GREETING;

  /** Greetings before each row's measurements: the first row would otherwise pay for the JIT. */
  private static final int WARMUP = 100;

  private static final int CLIENTS = 8;
  private static final Duration THROUGHPUT_WINDOW = Duration.ofSeconds(15);

  /**
   * The same load, not counted, before the measured window: the JIT compiles the concurrent path's
   * code (and competes for the 2 cores while it does) in this one, not in the measured one.
   */
  private static final Duration THROUGHPUT_WARMUP = Duration.ofSeconds(10);

  private static final int SEED_BATCH = 5_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private StoreBenchmark() {}

  record Row(
      String label,
      int stored,
      Percentiles direct,
      double runsPerSecond,
      Percentiles list,
      long rssMb,
      String loadAverage) {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    Path report = Path.of(args.length > 1 ? args[1] : "benchmarks/REPORT.md");
    // The seeded threads belong to the benchmark's one user: lift the per-user object limits.
    System.setProperty("threadline.limits.threads", "1000000");
    System.setProperty("threadline.limits.runs", "1000000");
    // The per-key rate limit (20 requests a second by default) would cap the throughput row.
    System.setProperty("threadline.ratelimit.enabled", "false");
    List<Row> rows = new ArrayList<>();
    // The JVM's first load, with an empty store, is a row of its own and not one of the sizes: the
    // JIT still compiles the concurrent path (and takes the 2 cores from it) for tens of seconds,
    // and the first size measured would otherwise carry that. Shown in the table, not hidden.
    if (Boolean.parseBoolean(System.getProperty("bench.store.jvmWarmUp", "true"))) {
      rows.add(measure(FIRST_LOAD, 0, iterations));
      System.err.println("store benchmark: " + rows.get(rows.size() - 1));
    }
    for (String size : System.getProperty("bench.store.sizes", "0,10000,100000").split(",")) {
      int stored = Integer.parseInt(size.strip());
      rows.add(measure(String.format(java.util.Locale.ROOT, "%,d", stored), stored, iterations));
      System.err.println("store benchmark: " + rows.get(rows.size() - 1));
      // After every row: the larger stores take long, and a stopped run still reports the rest.
      write(report, iterations, rows);
      System.err.println("report written to " + report.toAbsolutePath());
    }
  }

  /** The label of the JVM's first load (see main). */
  private static final String FIRST_LOAD = "0, the JVM's first load (JIT warm-up, not a size)";

  private static Row measure(String label, int stored, int iterations) throws Exception {
    Path dataDir = Files.createTempDirectory("threadline-store-bench");
    try {
      return measureIn(dataDir, label, stored, iterations);
    } finally {
      deleteTree(dataDir); // a store of 100,000 threads takes about 160 MB
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  private static Row measureIn(Path dataDir, String label, int stored, int iterations)
      throws Exception {
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(dataDir)
            .withApiKeys(Map.of(KEY, "bench"));
    String namespace;
    GenericKubernetesResource template;
    try (LocalMode local = LocalMode.start(settings)) {
      namespace = local.namespaces().get("bench");
      awaitReady(local.apiUrl());
      SseTimings.post(HttpClient.newHttpClient(), local.apiUrl() + "/v1/threads", KEY, GREETING);
      template =
          local
              .client()
              .genericKubernetesResources("threadline.dev/v1alpha1", "Thread")
              .inNamespace(namespace)
              .list()
              .getItems()
              .get(0);
    }
    seed(dataDir, namespace, template, stored);

    try (LocalMode local = LocalMode.start(settings)) {
      awaitReady(local.apiUrl());
      HttpClient http = HttpClient.newHttpClient();
      String threads = local.apiUrl() + "/v1/threads";
      for (int i = 0; i < WARMUP; i++) {
        SseTimings.post(http, threads, KEY, GREETING);
      }
      List<Double> direct = DirectLoad.sequential(http, threads, KEY, iterations);
      DirectLoad.throughput(threads, KEY, CLIENTS, THROUGHPUT_WARMUP);
      double runsPerSecond = DirectLoad.throughput(threads, KEY, CLIENTS, THROUGHPUT_WINDOW);
      List<Double> lists = new ArrayList<>();
      for (int i = 0; i < WARMUP + iterations; i++) {
        long start = System.nanoTime();
        HttpResponse<String> page = get(http, threads + "?limit=100");
        if (page.statusCode() != 200) {
          throw new IllegalStateException("list answered " + page.statusCode());
        }
        if (i >= WARMUP) {
          lists.add((System.nanoTime() - start) / 1e6);
        }
      }
      return new Row(
          label,
          stored,
          Percentiles.of(direct),
          runsPerSecond,
          Percentiles.of(lists),
          residentMb(),
          loadAverage());
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + KEY).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Waits until the API server answers (it says 503 while its caches load, longer with many stored
   * objects).
   */
  private static void awaitReady(String apiUrl) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    while (true) {
      HttpResponse<String> answer = get(http, apiUrl + "/v1/threads?limit=1");
      if (answer.statusCode() == 200) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the API server did not become ready: " + answer.body());
      }
      Thread.sleep(200);
    }
  }

  /** Clones of a real Thread, written straight into the stopped local mode's store. */
  private static void seed(
      Path dataDir, String namespace, GenericKubernetesResource template, int count)
      throws IOException {
    if (count == 0) {
      return;
    }
    ObjectNode base = JSON.valueToTree(template);
    String name = template.getMetadata().getName();
    String prefix = name.substring(0, name.lastIndexOf('-') + 1);
    try (ObjectStore store =
        ObjectStore.open(dataDir.resolve("kubernetes.db"), StoreOptions.defaults())) {
      for (int done = 0; done < count; ) {
        Map<ObjectKey, ObjectNode> batch = new LinkedHashMap<>();
        for (int i = 0; i < SEED_BATCH && done < count; i++, done++) {
          ObjectNode thread = base.deepCopy();
          String cloneName = prefix + UUID.randomUUID().toString().replace("-", "");
          ObjectNode metadata = (ObjectNode) thread.get("metadata");
          metadata.put("name", cloneName);
          metadata.put("uid", UUID.randomUUID().toString());
          metadata.remove("resourceVersion");
          batch.put(new ObjectKey("threads.threadline.dev", namespace, cloneName), thread);
        }
        store.createAll(batch);
      }
    }
  }

  /** This JVM's resident set (the whole local mode runs in it). */
  private static long residentMb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return -1;
  }

  /** The machine's 1, 5 and 15 minute load averages: other builds share these 2 cores. */
  private static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  private static final String SECTION = "## Store";

  /**
   * Replaces (or appends) the report's store section, up to the next section; the rest of the
   * report stays.
   */
  private static void write(Path report, int iterations, List<Row> rows) throws IOException {
    StringBuilder section = new StringBuilder(SECTION).append("\n\n");
    section
        .append("Generated by `StoreBenchmark` on ")
        .append(Instant.now())
        .append(", Java ")
        .append(Runtime.version())
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores. The local mode on its SQLite store, scripted model; threads seeded")
        .append(" straight into the store while it is stopped. Direct path: ")
        .append(iterations)
        .append(" greetings one after another (POST /v1/threads → `direct.response`); runs/s: ")
        .append(CLIENTS)
        .append(" clients posting greetings for ")
        .append(THROUGHPUT_WINDOW.toSeconds())
        .append(" s after ")
        .append(THROUGHPUT_WARMUP.toSeconds())
        .append(
            " s of the same load not counted; list: `GET /v1/threads?limit=100`; RSS of the one JVM"
                + " and the machine's")
        .append(" load average (1, 5, 15 min; other builds share the cores) at the end of each")
        .append(
            " row. The first row is the JVM's first load on an empty store, measured the same way")
        .append(
            " before the sizes: the JIT compiles the concurrent path during it; the sizes' rows")
        .append(" are the warm process a running service is.\n\n");
    section.append(
        "| stored threads | direct median ms | direct p99 ms | runs/s (8 clients) | list 100 median"
            + " ms | list 100 p99 ms | RSS MB | load average |\n");
    section.append("|---|---|---|---|---|---|---|---|\n");
    for (Row row : rows) {
      section.append(
          String.format(
              java.util.Locale.ROOT,
              "| %s | %.2f | %.2f | %.1f | %.2f | %.2f | %d | %s |%n",
              row.label(),
              row.direct().median(),
              row.direct().p99(),
              row.runsPerSecond(),
              row.list().median(),
              row.list().p99(),
              row.rssMb(),
              row.loadAverage()));
    }
    String existing = Files.exists(report) ? Files.readString(report) : "";
    int at = existing.indexOf(SECTION);
    String before = at < 0 ? existing.stripTrailing() + "\n\n" : existing.substring(0, at);
    int next = at < 0 ? -1 : existing.indexOf("\n## ", at + SECTION.length());
    String after = next < 0 ? "" : "\n" + existing.substring(next + 1);
    Files.writeString(report, before + section + after);
  }
}
