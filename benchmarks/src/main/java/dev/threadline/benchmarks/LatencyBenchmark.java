package dev.threadline.benchmarks;

import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Latency of the local mode with the scripted model, beside the floor (the embedded Kubernetes
 * API's own create → watch-event round trip, measured in the same run). Writes a Markdown report.
 *
 * <p>Run with {@code ./mvnw -q -pl benchmarks -am verify -Pbench -DskipTests} (options: {@code
 * -Dbench.iterations=200}, {@code -Dbench.report=benchmarks/REPORT.md}).
 */
public final class LatencyBenchmark {
  private static final String KEY = "tl_benchmark_key_000000000000";
  private static final int WARMUP = 20;
  private static final String SECTION = "\n## ";

  /**
   * The runner image's inputs, as {@code package} lays them out (the benchmark runs from the root).
   */
  private static final Path RUNNER_LAYOUT = Path.of("runner", "target", "image");

  private LatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    Path report = Path.of(args.length > 1 ? args[1] : "benchmarks/REPORT.md");
    // Traces on and off, on two local modes of their own side by side, before the main run.
    int computerIterations = Math.max(5, iterations / 10);
    TracingOverhead.Result traces =
        TracingOverhead.measure(KEY, WARMUP, iterations, computerIterations);
    System.err.println("traces on: " + traces.on());
    System.err.println("traces off: " + traces.off());
    Path dataDir = Files.createTempDirectory("threadline-bench");
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(dataDir)
            .withApiKeys(Map.of(KEY, "bench"));
    // The agent loop in the operator's worker, commands in a sandbox Pod's `runner serve`.
    try (LocalMode local = LocalMode.start(settings)) {
      String namespace = local.namespaces().get("bench");
      HttpClient http = HttpClient.newHttpClient();

      ApiRoundTrip.measure(local.client(), namespace, WARMUP);
      Percentiles floor =
          Percentiles.of(ApiRoundTrip.measure(local.client(), namespace, iterations));
      System.err.println("floor: " + floor);

      String greeting = "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
      for (int i = 0; i < WARMUP; i++) {
        SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, greeting);
      }
      List<Double> firstByte = new ArrayList<>();
      List<Double> directResponse = new ArrayList<>();
      for (int i = 0; i < iterations; i++) {
        SseTimings timings = SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, greeting);
        firstByte.add(timings.firstByteMillis);
        directResponse.add(require(timings, "direct.response"));
      }
      Percentiles firstBytes = Percentiles.of(firstByte);
      Percentiles direct = Percentiles.of(directResponse);
      System.err.println("POST -> first SSE byte: " + firstBytes);
      System.err.println("POST -> direct.response: " + direct);

      // The computer path starts a runner process per run: fewer iterations.
      String task =
          "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo one` and `echo two` and `echo"
              + " three`\"}]}";
      List<Double> computerStarting = new ArrayList<>();
      List<Double> responseStarted = new ArrayList<>();
      List<Double> workerToClient = new ArrayList<>();
      SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, task);
      for (int i = 0; i < computerIterations; i++) {
        SseTimings timings = SseTimings.post(http, local.apiUrl() + "/v1/threads", KEY, task);
        computerStarting.add(require(timings, "computer.starting"));
        responseStarted.add(require(timings, "response.started"));
        workerToClient.addAll(WorkerEventDelays.of(local.history(), namespace, timings));
      }
      Percentiles starting = Percentiles.of(computerStarting);
      Percentiles started = Percentiles.of(responseStarted);
      Percentiles relay = Percentiles.of(workerToClient);
      System.err.println("POST -> computer.starting: " + starting);
      System.err.println("POST -> response.started: " + started);
      System.err.println("worker tool event -> SSE client: " + relay);

      Percentiles webhooks = webhookDelays(http, local.apiUrl(), iterations);
      System.err.println("run completed -> webhook received: " + webhooks);
      RunnerStart.Starts runnerStart = RunnerStart.measure(RUNNER_LAYOUT, computerIterations);
      System.err.println("sandbox start, image layout: " + runnerStart);
      write(
          report,
          iterations,
          floor,
          firstBytes,
          direct,
          computerIterations,
          starting,
          started,
          relay,
          webhooks,
          runnerStart,
          traces);
      System.err.println("report written to " + report.toAbsolutePath());
    }
  }

  /**
   * Direct answers of an agent with a webhook: from each run's end to its signed POST's arrival.
   */
  private static Percentiles webhookDelays(HttpClient http, String apiUrl, int iterations)
      throws Exception {
    try (WebhookDelays receiver = WebhookDelays.start()) {
      String agentId =
          BenchAgents.create(
              http,
              apiUrl,
              KEY,
              """
              {"name": "bench-hooks", "model": "scripted-1", "webhooks": [{"url": "%s", "events": ["run.completed"]}]}
              """
                  .formatted(receiver.url()));
      String greeting =
          "{\"agentId\":\""
              + agentId
              + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
      List<Double> delays = new ArrayList<>();
      for (int i = 0; i < WARMUP + iterations; i++) {
        SseTimings.post(http, apiUrl + "/v1/threads", KEY, greeting);
        double delay = receiver.next();
        if (i >= WARMUP) {
          delays.add(delay);
        }
      }
      return Percentiles.of(delays);
    }
  }

  static double require(SseTimings timings, String type) {
    Double at = timings.firstEventMillis.get(type);
    if (at == null) {
      throw new IllegalStateException(
          "the stream had no " + type + " event; it had " + timings.firstEventMillis.keySet());
    }
    return at;
  }

  private static void write(
      Path report,
      int iterations,
      Percentiles floor,
      Percentiles firstByte,
      Percentiles direct,
      int computerIterations,
      Percentiles starting,
      Percentiles started,
      Percentiles relay,
      Percentiles webhooks,
      RunnerStart.Starts runnerStart,
      TracingOverhead.Result traces)
      throws IOException {
    String text =
        String.join(
            "\n",
            "# Latency report",
            "",
            "Local mode, scripted model, one client, requests one after another; "
                + iterations
                + " measured iterations after "
                + WARMUP
                + " warm-up ones. "
                + Percentiles.provenance("LatencyBenchmark"),
            "",
            Percentiles.TABLE_HEAD,
            Percentiles.row("floor: embedded API create → watch event", floor),
            Percentiles.row("POST /v1/threads → first SSE byte", firstByte),
            Percentiles.row("POST /v1/threads → `direct.response`", direct),
            Percentiles.row(
                "POST /v1/threads → `computer.starting` (" + computerIterations + " runs)",
                starting),
            Percentiles.row("POST /v1/threads → `response.started`", started),
            Percentiles.row("tool event recorded by the worker → SSE item received", relay),
            Percentiles.row("run completed → signed webhook received", webhooks),
            Percentiles.row(
                "sandbox `runner serve`, process start → `/health` answers, no AOT cache",
                runnerStart.plain()),
            Percentiles.row(
                "sandbox `runner serve`, process start → `/health` answers, AOT cache",
                runnerStart.aotCache()),
            "",
            "The computer path starts a sandbox Pod per run (`runner serve`, a JVM in local mode),"
                + " so",
            "`response.started` includes that start. \"Tool event recorded by the worker → SSE"
                + " item\" compares",
            "the event's timestamp, taken by the operator's worker when the sandbox's answer"
                + " arrives, with the",
            "client's clock on arrival (same machine; millisecond precision): it is the worker's"
                + " status write",
            "and the API server's watch; no Pod log is read.",
            "\"Run completed → webhook\" runs from the run's `completedAt` (operator clock, same"
                + " machine) to",
            "the receiver's arrival time: the final status seen, a WebhookDelivery created and"
                + " seen, the POST.",
            "",
            "\"Sandbox `runner serve`\" runs the runner image's `bin/runner serve` on a runtime"
                + " jlink'ed from its",
            "module list, from process start to the first `/health` answer: what a sandbox Pod"
                + " adds before",
            "the worker's first tool call; with the AOT cache the image build records from"
                + " `runner aot-training`.",
            "",
            "Numbers from a shared machine carry its load; compare rows of the same run, not runs"
                + " of",
            "different machines.",
            "",
            "The floor is what any controller built on this Kubernetes API pays for one write to be"
                + " seen. A",
            "direct answer needs at least three such hops (Thread and Run created, the operator's"
                + " status",
            "write seen by the API server), so about 3× the floor is the bound to compare against.",
            "",
            "**Traces off and on.** Measured before the table above, on two more local modes"
                + " running side by",
            "side in the same JVM: one with OpenTelemetry traces exported by OTLP/HTTP to a"
                + " receiver on loopback",
            "(a span per request, `invoke_agent`, `chat` and `execute_tool` spans, batched: "
                + traces.exportRequests()
                + " exports received),",
            "one with `OTEL_SDK_DISABLED=true`. Each request went to both in turn, which one first"
                + " alternating, so",
            "the JIT's warmth and the machine's load fall on both alike.",
            "",
            Percentiles.TABLE_HEAD,
            Percentiles.row(
                "traces on: POST /v1/threads → `direct.response`", traces.on().direct()),
            Percentiles.row(
                "traces off: POST /v1/threads → `direct.response`", traces.off().direct()),
            Percentiles.row(
                "traces on: POST /v1/threads → `response.started`", traces.on().responseStarted()),
            Percentiles.row(
                "traces off: POST /v1/threads → `response.started`",
                traces.off().responseStarted()),
            "");
    Files.createDirectories(report.toAbsolutePath().getParent());
    Files.writeString(report, text + earlierRuns(report));
  }

  /**
   * The old report's sections (other benchmarks' figures, earlier runs), kept below the new
   * numbers.
   */
  private static String earlierRuns(Path report) throws IOException {
    if (!Files.exists(report)) {
      return "";
    }
    String old = Files.readString(report);
    int at = old.indexOf(SECTION);
    return at < 0 ? "" : "\n" + old.substring(at + 1);
  }
}
