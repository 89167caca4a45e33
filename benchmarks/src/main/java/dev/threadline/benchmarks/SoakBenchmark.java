package dev.threadline.benchmarks;

import dev.threadline.operator.support.OpenAiStandIn;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak benchmark of issue 27: the local mode as a process of its own with two users. Bob sends
 * greetings one after another for the whole run (POST /v1/threads → {@code direct.response}); alice
 * runs one hostile pattern per phase, after a quiet phase. Per phase: bob's latency against the
 * quiet phase, his request count and refusals, every 5xx of either user, and the service's resident
 * memory, CPU time and log growth from /proc. Writes {@code benchmarks/SOAK-REPORT.md}.
 *
 * <p>{@code ./mvnw -q -pl benchmarks -am verify -Pbench-soak -DskipTests -Dbench.soak.minutes=10}
 */
public final class SoakBenchmark {
  private static final String ALICE = "tl_soak_alice_0123456789";
  private static final String BOB = "tl_soak_bob_0123456789";
  private static final Duration BOB_PAUSE = Duration.ofMillis(100);
  private static final Pattern THREAD_ID = Pattern.compile("\"id\"\\s*:\\s*\"(thread_[^\"]+)\"");
  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([a-z]+_[^\"]+)\"");
  private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern TEXT =
      Pattern.compile("\"(?:text|message)\"\\s*:\\s*\"([^\"]{0,240})");

  private final LocalProcess local;
  private final OpenAiStandIn model;
  private final Path dataDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private volatile Phase current;

  /**
   * Bob's greeting, to his own agent on the scripted model (the configured provider is alice's).
   */
  private String bobGreeting;

  /** Alice's agent on the scripted model: her computer runs and the quadratic-pattern message. */
  private String aliceScripted;

  private SoakBenchmark(LocalProcess local, OpenAiStandIn model, Path dataDir) {
    this.local = local;
    this.model = model;
    this.dataDir = dataDir;
  }

  /** What alice does during one phase, until its end. */
  @FunctionalInterface
  private interface Hostile {
    void run(SoakBenchmark soak, Phase phase) throws Exception;
  }

  /** One phase: its pattern, and what was measured while it ran. */
  private static final class Phase {
    final String name;
    final Hostile pattern;
    final List<Double> bob = Collections.synchronizedList(new ArrayList<>());
    final Map<Integer, AtomicInteger> bobRefusals = new ConcurrentHashMap<>();
    final AtomicInteger bobErrors = new AtomicInteger();
    final AtomicInteger fiveHundreds = new AtomicInteger();
    final AtomicLong maxRssMb = new AtomicLong();
    final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    Instant until;
    double seconds;
    double cpuSeconds;
    double childCpuSeconds;
    long rssEndMb;
    long logBytes;
    String load;

    Phase(String name, Hostile pattern) {
      this.name = name;
      this.pattern = pattern;
    }

    void note(String text) {
      notes.add(text);
    }
  }

  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "benchmarks/SOAK-REPORT.md");
    double minutes = Double.parseDouble(System.getProperty("bench.soak.minutes", "10"));
    List<Phase> phases =
        List.of(
            new Phase("quiet", SoakBenchmark::quiet),
            new Phase(
                "slow bodies, 250 connections from another address (127.0.0.2)",
                (soak, phase) -> soak.slowBodies(phase, "127.0.0.2")),
            new Phase(
                "slow bodies, 250 connections from bob's address (127.0.0.1, as a sandbox)",
                (soak, phase) -> soak.slowBodies(phase, "127.0.0.1")),
            new Phase("quadratic-pattern message + cancel", SoakBenchmark::quadraticAndCancel),
            new Phase("a recurring schedule (0 3 * * *)", SoakBenchmark::recurringSchedule),
            new Phase("create/delete schedules loop", SoakBenchmark::scheduleChurn),
            new Phase("a far-future one-time schedule", SoakBenchmark::farFutureSchedule),
            new Phase("fork bomb, memory hog, disk fill in a sandbox", SoakBenchmark::sandboxHogs),
            new Phase("warm-pool port churn (pool of 2, computer runs)", SoakBenchmark::portChurn),
            new Phase("webhooks to forbidden addresses", SoakBenchmark::forbiddenWebhooks),
            new Phase("a misbehaving model endpoint", SoakBenchmark::misbehavingModel),
            new Phase("quiet, after", SoakBenchmark::quiet));
    Duration each = Duration.ofMillis((long) (minutes * 60_000 / phases.size()));
    Path dataDir = Files.createTempDirectory("threadline-soak");
    try (OpenAiStandIn model = new OpenAiStandIn(Duration.ofMillis(50), Duration.ofMillis(5));
        LocalProcess local =
            LocalProcess.start(LocalProcess.Installation.current(), dataDir, environment(model))) {
      SoakBenchmark soak = new SoakBenchmark(local, model, dataDir);
      soak.awaitReady();
      soak.run(phases, each);
      String leftovers = soak.leftovers();
      write(report, phases, each, leftovers);
      System.err.println("report written to " + report.toAbsolutePath());
    } finally {
      HistoryBenchmark.deleteTree(dataDir);
    }
  }

  private static Map<String, String> environment(OpenAiStandIn model) {
    Map<String, String> env = LocalProcess.users(Map.of(ALICE, "alice", BOB, "bob"));
    // The configured provider (the stand-in) is every agent's default; bob names his scripted one.
    env.put("THREADLINE_MODEL_PROVIDER", "openai");
    env.put("THREADLINE_MODEL_NAME", "stand-in");
    env.put("THREADLINE_MODEL_BASE_URL", model.baseUrl());
    env.put("THREADLINE_MODEL_API_KEY", "soak-key");
    env.put("THREADLINE_MODEL_TIMEOUT_SECONDS", "10");
    env.put("THREADLINE_MODEL_PRICES", "stand-in=1/2/0.5");
    // Bob's one greeting after another makes thousands of threads in ten minutes.
    env.put("THREADLINE_LIMITS_THREADS", "100000");
    env.put("THREADLINE_LIMITS_RUNS", "100000");
    return env;
  }

  private void run(List<Phase> phases, Duration each) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    current = phases.getFirst();
    try (ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
      background.submit(() -> bob(stop));
      background.submit(() -> sample(stop));
      for (Phase phase : phases) {
        double cpu = local.cpuSeconds();
        double childCpu = local.childCpuSeconds();
        long log = local.logBytes();
        long start = System.nanoTime();
        phase.until = Instant.now().plus(each);
        current = phase;
        System.err.println("soak: phase " + phase.name);
        try {
          phase.pattern.run(this, phase);
        } catch (Exception e) {
          phase.note("the pattern stopped: " + e);
        }
        sleepUntil(phase.until);
        phase.seconds = (System.nanoTime() - start) / 1e9;
        phase.cpuSeconds = local.cpuSeconds() - cpu;
        phase.childCpuSeconds = local.childCpuSeconds() - childCpu;
        phase.logBytes = local.logBytes() - log;
        phase.rssEndMb = local.residentMb();
        phase.load = HistoryBenchmark.loadAverage();
        System.err.printf(
            "soak: %s: bob n=%d, %s%n",
            phase.name, phase.bob.size(), phase.bob.isEmpty() ? "-" : Percentiles.of(phase.bob));
      }
      stop.set(true);
    }
  }

  // --- bob: greetings one after another ---

  private Void bob(AtomicBoolean stop) throws InterruptedException {
    HttpClient bobs = HttpClient.newHttpClient();
    String threads = local.apiUrl() + "/v1/threads";
    while (!stop.get()) {
      Phase phase = current;
      try {
        SseTimings timings = SseTimings.post(bobs, threads, BOB, bobGreeting);
        if (phase == current) { // a request across two phases belongs to neither
          phase.bob.add(DirectLoad.directResponse(timings));
        }
      } catch (SseTimings.Refused refused) {
        phase
            .bobRefusals
            .computeIfAbsent(refused.status, s -> new AtomicInteger())
            .incrementAndGet();
        if (refused.status >= 500) {
          phase.fiveHundreds.incrementAndGet();
          phase.note("bob: " + refused.getMessage());
        }
      } catch (Exception e) {
        phase.bobErrors.incrementAndGet();
        if (phase.bobErrors.get() <= 3) {
          phase.note("bob's request failed: " + e);
        }
      }
      Thread.sleep(BOB_PAUSE);
    }
    return null;
  }

  private Void sample(AtomicBoolean stop) throws Exception {
    while (!stop.get()) {
      current.maxRssMb.accumulateAndGet(local.residentMb(), Math::max);
      Thread.sleep(1_000);
    }
    return null;
  }

  // --- alice's patterns ---

  private static void quiet(SoakBenchmark soak, Phase phase) {}

  /**
   * 250 connections, half with alice's key and half with none, each declaring a body of 100,000
   * bytes on POST /v1/threads and sending one byte of it every 5 s.
   */
  private void slowBodies(Phase phase, String source) throws Exception {
    URI api = URI.create(local.apiUrl());
    List<Socket> sockets = new ArrayList<>();
    Map<String, AtomicInteger> answers = new TreeMap<>();
    AtomicInteger closed = new AtomicInteger();
    try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 250; i++) {
        Socket socket = new Socket();
        try {
          socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
          socket.connect(new InetSocketAddress(api.getHost(), api.getPort()), 5_000);
          String head =
              "POST /v1/threads HTTP/1.1\r\nHost: "
                  + api.getHost()
                  + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
                  + (i % 2 == 0 ? "Authorization: Bearer " + ALICE + "\r\n" : "")
                  + "\r\n{";
          socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
          sockets.add(socket);
          readers.submit(() -> readStatus(socket, answers, closed));
        } catch (IOException e) {
          synchronized (answers) {
            answers.computeIfAbsent("connect failed", k -> new AtomicInteger()).incrementAndGet();
          }
          socket.close();
        }
      }
      while (Instant.now().isBefore(phase.until.minusSeconds(5))) {
        Thread.sleep(5_000);
        for (Socket socket : sockets) {
          try {
            OutputStream out = socket.getOutputStream();
            out.write(' ');
            out.flush();
          } catch (IOException gone) {
            // closed by the server: counted by its reader
          }
        }
      }
      phase.note(
          sockets.size()
              + " connections from "
              + source
              + "; what they got before the phase ended: "
              + answers
              + " ("
              + closed.get()
              + " closed by the server)");
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  private static void readStatus(
      Socket socket, Map<String, AtomicInteger> answers, AtomicInteger closed) {
    try {
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0 && c != '\n' && line.length() < 100) {
        line.append((char) c);
      }
      String status = line.length() == 0 ? "nothing" : line.toString().strip();
      synchronized (answers) {
        answers.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
      }
      while (in.read() >= 0) {
        // the rest of the answer, until the server closes
      }
      closed.incrementAndGet();
    } catch (IOException e) {
      // closed by us at the end of the phase
    }
  }

  /**
   * The scripted model's worst shape of issue 27 (a task, 200,000 spaces, one more word) on a new
   * thread, cancelled once the thread exists; again until the phase ends.
   */
  private void quadraticAndCancel(Phase phase) throws Exception {
    // 199,017 characters: the most a message's content may have is 200,000.
    String body = message("what is the time" + " ".repeat(199_000) + "x");
    List<Double> ends = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    while (Instant.now().isBefore(phase.until.minusSeconds(5))) {
      long start = System.nanoTime();
      Stream stream = stream(phase, "/v1/threads", ALICE, body, Duration.ofSeconds(60), true);
      outcomes.merge(stream.outcome(), 1, Integer::sum);
      ends.add((System.nanoTime() - start) / 1e6);
      Thread.sleep(500);
    }
    phase.note(
        ends.size()
            + " messages of 199,017 characters, each cancelled as soon as its thread existed;"
            + " how their streams ended: "
            + outcomes
            + (ends.isEmpty() ? "" : "; POST → stream end " + Percentiles.of(ends)));
  }

  private void recurringSchedule(Phase phase) throws Exception {
    HttpResponse<String> created =
        send(
            phase,
            "POST",
            "/v1/schedules",
            ALICE,
            "{\"name\":\"soak-nightly\",\"task\":\"Hello!\",\"scheduleType\":\"recurring\","
                + "\"cronExpression\":\"0 3 * * *\"}");
    phase.note("POST /v1/schedules (recurring, 0 3 * * *): " + created.statusCode());
    sleepUntil(phase.until.minusSeconds(2));
    id(created.body()).ifPresent(id -> deleteQuietly(phase, "/v1/schedules/" + id));
  }

  private void scheduleChurn(Phase phase) throws Exception {
    int cycles = 0;
    Map<String, Integer> statuses = new TreeMap<>();
    while (Instant.now().isBefore(phase.until.minusSeconds(10))) {
      HttpResponse<String> created =
          send(
              phase,
              "POST",
              "/v1/schedules",
              ALICE,
              "{\"name\":\"soak-churn-"
                  + cycles
                  + "\",\"task\":\"Hello!\",\"scheduleType\":\"recurring\","
                  + "\"cronExpression\":\"* * * * *\"}");
      statuses.merge("create " + created.statusCode(), 1, Integer::sum);
      var id = id(created.body());
      if (id.isPresent()) {
        HttpResponse<String> deleted =
            send(phase, "DELETE", "/v1/schedules/" + id.get(), ALICE, null);
        statuses.merge("delete " + deleted.statusCode(), 1, Integer::sum);
      }
      cycles++;
      Thread.sleep(200);
    }
    sleepUntil(phase.until.minusSeconds(2));
    phase.note(
        cycles
            + " create/delete cycles of an every-minute schedule: "
            + statuses
            + "; at the phase's end: "
            + leftovers());
  }

  private void farFutureSchedule(Phase phase) throws Exception {
    HttpResponse<String> created =
        send(
            phase,
            "POST",
            "/v1/schedules",
            ALICE,
            "{\"name\":\"soak-far\",\"task\":\"Hello!\",\"scheduleType\":\"one-time\","
                + "\"scheduledTime\":\"+999999999-12-31T23:59:59Z\"}");
    phase.note(
        "POST /v1/schedules (one-time, +999999999-12-31T23:59:59Z): "
            + created.statusCode()
            + " "
            + abbreviate(created.body()));
    sleepUntil(phase.until.minusSeconds(2));
    id(created.body()).ifPresent(id -> deleteQuietly(phase, "/v1/schedules/" + id));
  }

  /**
   * A computer run each, in turn: 2,000 background processes (a bounded fork bomb: an unbounded one
   * under rlimits would share this machine's process count with other engineers' builds), 3 GB held
   * in memory, 3 GB written to the workspace.
   */
  private void sandboxHogs(Phase phase) throws Exception {
    List<String> commands =
        List.of(
            "```bash\nfor i in $(seq 1 2000); do sleep 15 & done 2>/dev/null; echo spawned;"
                + " ps -e | wc -l; wait\n```",
            "`head -c 3000m /dev/zero | tail | wc -c`",
            "`dd if=/dev/zero of=fill.bin bs=1M count=3000 2>&1 | tail -1; ls -l fill.bin; rm -f"
                + " fill.bin`");
    int round = 0;
    while (Instant.now().isBefore(phase.until.minusSeconds(5))) {
      String command = commands.get(round++ % commands.size());
      Stream stream =
          stream(
              phase, "/v1/threads", ALICE, message("Run " + command), Duration.ofMinutes(3), false);
      phase.note(
          "`"
              + abbreviate(command.replace("\n", " "))
              + "` → "
              + stream.outcome()
              + " in "
              + Math.round(stream.millis())
              + " ms: "
              + stream.lastText());
    }
  }

  private void portChurn(Phase phase) throws Exception {
    HttpResponse<String> environment = send(phase, "GET", "/environments/default", ALICE, null);
    Matcher env = Pattern.compile("\"id\"\\s*:\\s*\"(env_[^\"]+)\"").matcher(environment.body());
    if (!env.find()) {
      phase.note("no default environment: " + environment.statusCode());
      return;
    }
    String path = "/environments/" + env.group(1);
    phase.note(
        "PATCH warmPool.size=2: "
            + send(phase, "PATCH", path, ALICE, "{\"warmPool\":{\"size\":2}}").statusCode());
    Thread.sleep(3_000);
    Map<String, Integer> outcomes = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    int runs = 0;
    while (runs < 20 && Instant.now().isBefore(phase.until.minusSeconds(8))) {
      Stream stream =
          stream(
              phase, "/v1/threads", ALICE, message("Run `echo one`"), Duration.ofMinutes(2), false);
      outcomes.merge(stream.outcome(), 1, Integer::sum);
      if (!stream.outcome().equals("response.completed")) {
        failures.add(stream.lastText());
      }
      runs++;
    }
    send(phase, "PATCH", path, ALICE, "{\"warmPool\":{\"size\":0}}");
    phase.note(
        runs
            + " computer runs (`echo one`) one after another: "
            + outcomes
            + (failures.isEmpty()
                ? ""
                : "; failures: " + failures.subList(0, Math.min(3, failures.size()))));
  }

  private void forbiddenWebhooks(Phase phase) throws Exception {
    List<String> targets =
        List.of(
            "http://169.254.169.254/latest/meta-data",
            "http://10.0.0.1/hook",
            "http://0.0.0.0:8080/hook",
            "http://[::ffff:127.0.0.1]/hook",
            "http://2130706433/hook",
            "http://user:pass@127.0.0.1/hook",
            "http://127.0.0.1:99999/hook",
            "http://0177.0.0.1/hook",
            "http://192.168.1.1/hook");
    Map<String, Map<Integer, Integer>> statuses = new TreeMap<>();
    int sent = 0;
    while (Instant.now().isBefore(phase.until.minusSeconds(3))) {
      String target = targets.get(sent % targets.size());
      HttpResponse<String> answer =
          send(
              phase,
              "POST",
              "/v1/agents",
              ALICE,
              "{\"name\":\"soak-hook-"
                  + sent
                  + "\",\"model\":\"scripted-1\",\"webhooks\":[{\"url\":\""
                  + target
                  + "\",\"events\":[\"run.completed\"]}]}");
      statuses
          .computeIfAbsent(target, t -> new TreeMap<>())
          .merge(answer.statusCode(), 1, Integer::sum);
      id(answer.body()).ifPresent(id -> deleteQuietly(phase, "/v1/agents/" + id));
      sent++;
      Thread.sleep(250);
    }
    phase.note(sent + " agent registrations with a webhook, status by target: " + statuses);
  }

  /** Each way a provider can fail, in turn, on alice's agent that talks to the stand-in. */
  private void misbehavingModel(Phase phase) throws Exception {
    String agent =
        BenchAgents.create(
            http,
            local.apiUrl(),
            ALICE,
            "{\"name\":\"soak-model\",\"provider\":\"openai\",\"model\":\"stand-in\"}");
    List<String> ways =
        List.of(
            "usage in the finishing chunk", "cut off mid-stream", "500", "429", "hangs", "answers");
    int round = 0;
    while (Instant.now().isBefore(phase.until.minusSeconds(5))) {
      String way = ways.get(round++ % ways.size());
      model.clearReplies();
      for (int i = 0; i < 6; i++) { // the router's call, the answer's, the SDK's retries
        switch (way) {
          case "usage in the finishing chunk" ->
              model.answerStreamed(
                  OpenAiStandIn.Stream.USAGE_IN_THE_FINISHING_CHUNK, "Hi", " there");
          case "cut off mid-stream" ->
              model.answerStreamed(OpenAiStandIn.Stream.CUT_OFF, "Hi", " th");
          case "500" -> model.answerError(500, "the stand-in fails");
          case "429" -> model.answerError(429, "the stand-in is busy");
          case "hangs" -> model.answerNothing();
          default -> model.answerText("Hello", " from", " the", " stand-in.");
        }
      }
      Stream stream =
          stream(
              phase,
              "/v1/threads",
              ALICE,
              "{\"agentId\":\""
                  + agent
                  + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello?\"}]}",
              Duration.ofSeconds(90),
              false);
      phase.note(
          "model "
              + way
              + " → "
              + stream.outcome()
              + " in "
              + Math.round(stream.millis())
              + " ms: "
              + stream.lastText());
    }
    model.clearReplies();
  }

  // --- HTTP ---

  /** A message to alice's scripted agent. */
  private String message(String content) {
    return "{\"agentId\":\""
        + aliceScripted
        + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
        + content.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
        + "\"}]}";
  }

  /**
   * How a stream ended: {@code response.failed} if it said so, else its last event before {@code
   * stream.completed}; its time; the last text it carried.
   */
  private record Stream(String outcome, double millis, String lastText) {}

  /**
   * POSTs {@code body} and reads the stream to its end (or {@code timeout}); with {@code cancel},
   * POSTs the thread's cancel as soon as {@code thread.created} names it.
   */
  private Stream stream(
      Phase phase, String path, String key, String body, Duration timeout, boolean cancel)
      throws Exception {
    long start = System.nanoTime();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(local.apiUrl() + path))
            .timeout(timeout)
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<java.util.stream.Stream<String>> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofLines());
    } catch (IOException e) {
      return new Stream(
          "failed: " + e.getClass().getSimpleName(), (System.nanoTime() - start) / 1e6, "");
    }
    if (response.statusCode() != 200) {
      count(phase, response.statusCode());
      String text = String.join(" ", response.body().limit(5).toList());
      return new Stream(
          "HTTP " + response.statusCode(), (System.nanoTime() - start) / 1e6, abbreviate(text));
    }
    String last = "none";
    String lastText = "";
    boolean cancelled = false;
    try (var lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (!line.startsWith("data:")) {
          continue;
        }
        Matcher type = TYPE.matcher(line);
        boolean end = false;
        if (type.find()) {
          end = type.group(1).equals("stream.completed");
          // The outcome is the event before the stream's end; a failure anywhere wins.
          if (!end && !last.equals("response.failed")) {
            last = type.group(1);
          }
        }
        Matcher text = TEXT.matcher(line);
        while (text.find()) {
          lastText = text.group(1);
        }
        if (cancel && !cancelled) {
          Matcher thread = THREAD_ID.matcher(line);
          if (thread.find()) {
            cancelled = true;
            HttpResponse<String> answer =
                send(phase, "POST", "/v1/threads/" + thread.group(1) + "/cancel", key, "{}");
            if (answer.statusCode() != 200) {
              phase.note(
                  "cancel answered " + answer.statusCode() + ": " + abbreviate(answer.body()));
            }
          }
        }
        if (end) {
          break;
        }
      }
    } catch (Exception e) {
      last = last + " then " + e.getClass().getSimpleName();
    }
    return new Stream(last, (System.nanoTime() - start) / 1e6, abbreviate(lastText));
  }

  private HttpResponse<String> send(
      Phase phase, String method, String path, String key, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(local.apiUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + key);
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    count(phase, answer.statusCode());
    return answer;
  }

  private static void count(Phase phase, int status) {
    if (status >= 500) {
      phase.fiveHundreds.incrementAndGet();
      phase.note("alice got a " + status);
    }
  }

  private void deleteQuietly(Phase phase, String path) {
    try {
      send(phase, "DELETE", path, ALICE, null);
    } catch (Exception e) {
      phase.note("DELETE " + path + " failed: " + e);
    }
  }

  private static java.util.Optional<String> id(String body) {
    Matcher id = ID.matcher(body);
    return id.find() ? java.util.Optional.of(id.group(1)) : java.util.Optional.empty();
  }

  private static String abbreviate(String text) {
    String flat = text.replace("|", "/").replace("\n", " ");
    return flat.length() > 160 ? flat.substring(0, 157) + "…" : flat;
  }

  /** Schedules, CronJobs and Jobs left in the embedded API (a deleted schedule leaves none). */
  private String leftovers() {
    Path kubeconfig = dataDir.resolve("kubeconfig");
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
            .build()) {
      int schedules =
          client
              .genericKubernetesResources("threadline.dev/v1alpha1", "Schedule")
              .inAnyNamespace()
              .list()
              .getItems()
              .size();
      int cronJobs = client.batch().v1().cronjobs().inAnyNamespace().list().getItems().size();
      int jobs = client.batch().v1().jobs().inAnyNamespace().list().getItems().size();
      return schedules + " Schedules, " + cronJobs + " CronJobs, " + jobs + " Jobs";
    } catch (Exception e) {
      return "could not count them: " + e;
    }
  }

  private void awaitReady() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    while (http.send(
                HttpRequest.newBuilder(URI.create(local.apiUrl() + "/v1/threads?limit=1"))
                    .header("Authorization", "Bearer " + BOB)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .statusCode()
        != 200) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the API server did not become ready");
      }
      Thread.sleep(200);
    }
    String agent =
        BenchAgents.create(
            http,
            local.apiUrl(),
            BOB,
            "{\"name\":\"soak-bob\",\"provider\":\"scripted\",\"model\":\"scripted-1\"}");
    aliceScripted =
        BenchAgents.create(
            http,
            local.apiUrl(),
            ALICE,
            "{\"name\":\"soak-alice\",\"provider\":\"scripted\",\"model\":\"scripted-1\"}");
    bobGreeting =
        "{\"agentId\":\"" + agent + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}";
    // Bob's first greetings warm the service's paths before the quiet phase measures them.
    for (int i = 0; i < 50; i++) {
      DirectLoad.directResponse(
          SseTimings.post(http, local.apiUrl() + "/v1/threads", BOB, bobGreeting));
    }
  }

  private static void sleepUntil(Instant until) throws InterruptedException {
    long millis = Duration.between(Instant.now(), until).toMillis();
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }

  // --- the report ---

  private static void write(Path report, List<Phase> phases, Duration each, String leftovers)
      throws IOException {
    Phase quiet = phases.getFirst();
    Percentiles base = Percentiles.of(quiet.bob);
    int fiveHundreds = phases.stream().mapToInt(p -> p.fiveHundreds.get()).sum();
    StringBuilder text = new StringBuilder("# Soak benchmark (issue 27)\n\n");
    text.append(Percentiles.provenance("SoakBenchmark"))
        .append(" One run (`-Pbench-soak`): ")
        .append(phases.size())
        .append(" phases of ")
        .append(each.toSeconds())
        .append(" s. The local mode runs as its own process (`ThreadlineLocal`, this build,")
        .append(" default settings but for two users, alice and bob, the object limits raised for")
        .append(" bob's thousands of threads, and alice's `openai` agent pointed at a stand-in")
        .append(
            " endpoint in the benchmark's JVM; bob's own agent is on the scripted model, `provider:"
                + " scripted`).")
        .append(" Bob sends greetings one after another for the whole run, ")
        .append(BOB_PAUSE.toMillis())
        .append(" ms apart (POST /v1/threads → `direct.response`, from the request to that event);")
        .append(" alice runs one hostile pattern per phase. RSS is the service JVM's `VmRSS`")
        .append(" (the most sampled each second, and at the phase's end); CPU is the service JVM's")
        .append(" user + system time during the phase, and apart from it the CPU of its child")
        .append(" processes (sandboxes) that ended during it. The machine's 2 cores are shared")
        .append(" with other engineers' builds and tests: the load average at each phase's end is")
        .append(" given, and latency ratios carry that load.\n\n");
    text.append(
            String.format(
                Locale.ROOT,
                "**5xx answers: %d** (bob's and alice's together; none is the target). Left in"
                    + " the embedded API at the end: %s.%n%n",
                fiveHundreds,
                leftovers))
        .append("| phase | bob's requests | median ms | p99 ms | median × quiet | p99 × quiet |")
        .append(" bob refused | bob errors | 5xx | RSS max / end MB | service CPU s | sandboxes")
        .append(" CPU s | log KB | load average |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase phase : phases) {
      boolean any = !phase.bob.isEmpty();
      Percentiles p = any ? Percentiles.of(phase.bob) : null;
      text.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | %s | %s | %s | %d | %d | %d / %d | %.1f | %.1f | %d | %s |%n",
              phase.name,
              phase.bob.size(),
              any ? String.format(Locale.ROOT, "%.1f", p.median()) : "–",
              any ? String.format(Locale.ROOT, "%.1f", p.p99()) : "–",
              any ? String.format(Locale.ROOT, "%.2f", p.median() / base.median()) : "–",
              any ? String.format(Locale.ROOT, "%.2f", p.p99() / base.p99()) : "–",
              phase.bobRefusals.isEmpty() ? "0" : phase.bobRefusals.toString(),
              phase.bobErrors.get(),
              phase.fiveHundreds.get(),
              phase.maxRssMb.get(),
              phase.rssEndMb,
              phase.cpuSeconds,
              phase.childCpuSeconds,
              phase.logBytes / 1024,
              phase.load));
    }
    text.append("\n## What alice's patterns got\n\n");
    for (Phase phase : phases) {
      if (phase.notes.isEmpty()) {
        continue;
      }
      text.append("**").append(phase.name).append("**\n\n");
      synchronized (phase.notes) {
        int shown = 0;
        for (String note : phase.notes) {
          if (shown++ == 12) {
            text.append("- … ").append(phase.notes.size() - 12).append(" more\n");
            break;
          }
          text.append("- ").append(note).append('\n');
        }
      }
      text.append('\n');
    }
    String existing = Files.exists(report) ? Files.readString(report) : "";
    int kept = existing.indexOf(KEPT_SECTION);
    Files.writeString(
        report,
        text.toString().stripTrailing() + "\n" + (kept < 0 ? "" : "\n" + existing.substring(kept)));
  }

  /** A section written by hand (what the numbers mean), kept when the report is written again. */
  private static final String KEPT_SECTION = "## Reading the numbers";
}
