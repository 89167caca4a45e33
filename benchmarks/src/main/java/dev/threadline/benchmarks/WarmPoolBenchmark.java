package dev.threadline.benchmarks;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.WarmPoolStatus;
import dev.threadline.crds.run.Run;
import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Warm pools (docs/warm-pools.md), one local-mode run: POST /v1/threads → {@code response.started}
 * of a computer run whose sandbox is claimed from a pool of 2, next to cold starts (no pool) and
 * the direct path's {@code direct.response}; each run's {@code status.start} is checked, and the
 * operator's claim and sandbox-start meters are read from its /metrics. Writes the "Warm pools"
 * section of the report.
 */
public final class WarmPoolBenchmark {
  private static final String KEY = "tl_benchmark_key_000000000000";
  private static final String SECTION = "## Warm pools (issue 16)";
  private static final int WARMUP = 10;
  private static final int POOL_SIZE = 2;
  private static final int CONTAINERS = 10;
  private static final String CLAIM = "threadline_warm_pool_claim_duration";
  private static final String SANDBOX_START = "threadline_sandbox_start_duration";
  private static final String TASK =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo one`\"}]}";

  private WarmPoolBenchmark() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    // The container rows poll a container's file API until it answers: the per-key rate limit
    // (20 requests a second by default) would refuse the polls, not measure the start.
    System.setProperty("threadline.ratelimit.enabled", "false");
    Path report = Path.of(args.length > 1 ? args[1] : "benchmarks/REPORT.md");
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(Files.createTempDirectory("threadline-bench-pool"))
            .withApiKeys(Map.of(KEY, "bench"));
    try (LocalMode local = LocalMode.start(settings)) {
      HttpClient http = HttpClient.newHttpClient();
      String threads = local.apiUrl() + "/v1/threads";
      String namespace = local.namespaces().get("bench");
      KubernetesClient client = local.client();

      String greeting = "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
      for (int i = 0; i < WARMUP; i++) {
        SseTimings.post(http, threads, KEY, greeting);
      }
      List<Double> direct = new ArrayList<>();
      for (int i = 0; i < iterations; i++) {
        direct.add(require(SseTimings.post(http, threads, KEY, greeting), "direct.response"));
      }

      String environment = defaultEnvironment(http, local.apiUrl());
      int coldIterations = Math.max(5, iterations / 3);
      SseTimings.post(http, threads, KEY, TASK); // the first computer run warms the JVM's paths
      List<Double> cold = new ArrayList<>();
      for (int i = 0; i < coldIterations; i++) {
        SseTimings timings = SseTimings.post(http, threads, KEY, TASK);
        cold.add(require(timings, "response.started"));
        expectStart(client, namespace, timings, "cold");
      }

      List<Double> coldContainers = new ArrayList<>();
      for (int i = 0; i < CONTAINERS; i++) {
        coldContainers.add(containerReady(http, local.apiUrl(), environment, "cold"));
      }

      patch(http, local.apiUrl() + "/environments/" + environment, POOL_SIZE);
      String envName = ResourceIds.toName(environment).orElseThrow();
      awaitReady(client, namespace, envName, POOL_SIZE);
      SseTimings.post(http, threads, KEY, TASK);
      List<Double> warm = new ArrayList<>();
      ClaimedStartSegments segments = new ClaimedStartSegments();
      String metricsBefore = scrape(http, local.operatorMetricsUrl());
      for (int i = 0; i < iterations; i++) {
        // One after another, as a user's runs come: the pool refills between them.
        awaitReady(client, namespace, envName, 1);
        Instant sent = Instant.now();
        SseTimings timings = SseTimings.post(http, threads, KEY, TASK);
        double started = require(timings, "response.started");
        warm.add(started);
        segments.add(
            sent, started, expectStart(client, namespace, timings, "claimed"), local.history());
      }
      String metrics = scrape(http, local.operatorMetricsUrl());
      List<Double> claimedContainers = new ArrayList<>();
      for (int i = 0; i < CONTAINERS; i++) {
        awaitReady(client, namespace, envName, 1);
        claimedContainers.add(containerReady(http, local.apiUrl(), environment, "claimed"));
      }

      Percentiles directP = Percentiles.of(direct);
      Percentiles coldP = Percentiles.of(cold);
      Percentiles warmP = Percentiles.of(warm);
      System.err.println("direct.response: " + directP);
      System.err.println("cold response.started: " + coldP);
      System.err.println("warm response.started: " + warmP);
      segments.rows().forEach(System.err::println);
      List<String> steps = StartStepMeans.rows(metricsBefore, metrics);
      steps.forEach(System.err::println);
      Percentiles coldContainerP = Percentiles.of(coldContainers);
      Percentiles claimedContainerP = Percentiles.of(claimedContainers);
      System.err.println("cold container ready: " + coldContainerP);
      System.err.println("claimed container ready: " + claimedContainerP);
      write(
          report,
          directP,
          coldP,
          warmP,
          coldContainerP,
          claimedContainerP,
          segments,
          steps,
          metrics);
      System.err.println("report written to " + report.toAbsolutePath());
    }
  }

  private static double require(SseTimings timings, String type) {
    Double at = timings.firstEventMillis.get(type);
    if (at == null) {
      throw new IllegalStateException("no " + type + " event in " + timings.firstEventMillis);
    }
    return at;
  }

  private static Run expectStart(
      KubernetesClient client, String namespace, SseTimings timings, String start) {
    String thread = ResourceIds.toName(timings.threadId).orElseThrow();
    Run run =
        client
            .resources(Run.class)
            .inNamespace(namespace)
            .withName(ThreadRuns.runName(thread, 1))
            .get();
    if (run == null || !start.equals(run.getStatus().getStart())) {
      throw new IllegalStateException(
          "run of " + thread + " started " + (run == null ? "?" : run.getStatus().getStart()));
    }
    return run;
  }

  /**
   * POST /api/v1/containers (ephemeral, in {@code environment}) → the first 200 of its file API
   * (polled every 5 ms), in ms; checks the container's {@code start} and deletes it.
   */
  private static double containerReady(
      HttpClient http, String api, String environment, String start) throws Exception {
    long began = System.nanoTime();
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(URI.create(api + "/api/v1/containers"))
                .header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"environmentId\": \"" + environment + "\", \"model\": \"scripted\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"(ctr_[^\"]+)\"").matcher(created.body());
    if (created.statusCode() != 201 || !id.find()) {
      throw new IllegalStateException("POST /api/v1/containers: " + created.body());
    }
    String base = api + "/api/v1/containers/" + id.group(1);
    Instant limit = Instant.now().plusSeconds(60);
    while (get(http, base + "/files").statusCode() != 200) {
      if (Instant.now().isAfter(limit)) {
        throw new IllegalStateException("container " + id.group(1) + " never answered");
      }
      Thread.sleep(5); // a benchmark driver, outside the product: polling is fine here
    }
    double took = (System.nanoTime() - began) / 1e6;
    String body = get(http, base).body();
    if (!body.contains("\"start\":\"" + start + "\"")) {
      throw new IllegalStateException("container started other than " + start + ": " + body);
    }
    http.send(
        HttpRequest.newBuilder(URI.create(base))
            .header("Authorization", "Bearer " + KEY)
            .DELETE()
            .build(),
        HttpResponse.BodyHandlers.ofString());
    return took;
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + KEY).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String defaultEnvironment(HttpClient http, String api) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(api + "/environments/default"))
                .header("Authorization", "Bearer " + KEY)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"(env_[^\"]+)\"").matcher(response.body());
    if (!id.find()) {
      throw new IllegalStateException("no default environment: " + response.body());
    }
    return id.group(1);
  }

  private static void patch(HttpClient http, String url, int size) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "application/json")
                .method(
                    "PATCH",
                    HttpRequest.BodyPublishers.ofString("{\"warmPool\":{\"size\":" + size + "}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("PATCH " + url + ": " + response.body());
    }
  }

  /** Waits until the environment's status counts that many ready pool sandboxes. */
  private static void awaitReady(
      KubernetesClient client, String namespace, String environment, int atLeast)
      throws InterruptedException {
    Instant limit = Instant.now().plusSeconds(60);
    while (Instant.now().isBefore(limit)) {
      Environment current =
          client.resources(Environment.class).inNamespace(namespace).withName(environment).get();
      WarmPoolStatus pool = current.getStatus() == null ? null : current.getStatus().getWarmPool();
      if (pool != null && pool.getReady() != null && pool.getReady() >= atLeast) {
        return;
      }
      Thread.sleep(20); // a benchmark driver, outside the product: polling is fine here
    }
    throw new IllegalStateException("the pool did not get " + atLeast + " ready sandboxes");
  }

  private static String scrape(HttpClient http, String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Mean of a Prometheus timer's samples with these labels, in ms; NaN when absent. */
  static double meanMillis(String metrics, String name, String labels) {
    double sum = value(metrics, name + "_seconds_sum{" + labels);
    double count = value(metrics, name + "_seconds_count{" + labels);
    return count > 0 ? sum / count * 1000 : Double.NaN;
  }

  private static String millis(double value) {
    return Double.isNaN(value) ? "n/a (none)" : String.format("%.2f ms", value);
  }

  static double value(String metrics, String prefix) {
    return metrics
        .lines()
        .filter(line -> line.startsWith(prefix))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  private static void write(
      Path report,
      Percentiles direct,
      Percentiles cold,
      Percentiles warm,
      Percentiles coldContainer,
      Percentiles claimedContainer,
      ClaimedStartSegments segments,
      List<String> steps,
      String metrics)
      throws IOException {
    String section =
        String.join(
            "\n",
            SECTION,
            "",
            Percentiles.provenance("WarmPoolBenchmark")
                + " Local mode, scripted model, one client, runs one after another (the"
                + " warm rows wait until the pool has a ready sandbox again before each POST);"
                + " the same JVM for all rows.",
            "",
            Percentiles.TABLE_HEAD,
            Percentiles.row("POST /v1/threads → `direct.response`", direct),
            Percentiles.row("POST /v1/threads → `response.started`, cold (no pool)", cold),
            Percentiles.row(
                "POST /v1/threads → `response.started`, claimed (pool of " + POOL_SIZE + ")", warm),
            Percentiles.row(
                "POST /api/v1/containers (ephemeral) → its file API answers, cold (no pool)",
                coldContainer),
            Percentiles.row(
                "POST /api/v1/containers (ephemeral) → its file API answers, claimed (pool of "
                    + POOL_SIZE
                    + ")",
                claimedContainer),
            "",
            "Operator meters over the same run (means): claim "
                + millis(meanMillis(metrics, CLAIM, "outcome=\"hit\""))
                + " on a hit, "
                + millis(meanMillis(metrics, CLAIM, "outcome=\"miss\""))
                + " on a miss; run start → sandbox serving "
                + millis(meanMillis(metrics, SANDBOX_START, "start=\"claimed\""))
                + " claimed, "
                + millis(meanMillis(metrics, SANDBOX_START, "start=\"cold\""))
                + " cold (`"
                + CLAIM
                + "`, `"
                + SANDBOX_START
                + "`).",
            "",
            String.format(
                "Goal: claimed median ≤ 150 ms and p99 ≤ 400 ms, i.e. within 5× the direct"
                    + " path's median (%.2f ms × 5 = %.2f ms).",
                direct.median(), direct.median() * 5),
            "",
            "Where a claimed start's time goes, per run, from the timestamps of the Run's own"
                + " events (the operator's routing `started`, the worker's `started` and"
                + " `planning`) and the client's clock (one machine):",
            "",
            Percentiles.TABLE_HEAD,
            String.join("\n", segments.rows()),
            "",
            "The steps inside those segments, from the operator's meter `"
                + StartStepMeans.METER
                + "` over the claimed rows only (means; task, memory and bind run side by side):",
            "",
            StartStepMeans.TABLE_HEAD,
            String.join("\n", steps),
            "");
    String text = Files.exists(report) ? Files.readString(report) : "";
    int at = text.indexOf(SECTION);
    if (at >= 0) {
      int next = text.indexOf("\n## ", at + SECTION.length());
      text = text.substring(0, at) + section + (next < 0 ? "" : text.substring(next + 1));
    } else {
      text = text + (text.endsWith("\n") ? "\n" : "\n\n") + section;
    }
    Files.writeString(report, text);
  }
}
