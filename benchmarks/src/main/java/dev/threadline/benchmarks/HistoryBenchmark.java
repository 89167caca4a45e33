package dev.threadline.benchmarks;

import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import dev.threadline.operator.worker.WorkerStepCosts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The history store's costs (issue 26), one run, every measurement over HTTP against the local mode
 * in a process of its own unless it is the worker's own write:
 *
 * <ul>
 *   <li>a memory step's cost by its place in a long run: {@code MemoryLog.append} as the worker
 *       calls it, and the worker's whole per-step path ({@link WorkerStepCosts});
 *   <li>the local mode's resident memory with 1,000,000 archived threads (and their run records)
 *       seeded into its history store, against an empty store, when few threads are live;
 *   <li>the direct path's latency and 8-client throughput of this build against a packaged build of
 *       another commit ({@code -Dbench.history.before=<its worktree>}), started the same way.
 * </ul>
 *
 * <p>Writes {@code benchmarks/HISTORY-REPORT.md}; its section {@value #KEPT_SECTION} (written by
 * hand: the existing benchmarks' rows before and after) stays.
 */
public final class HistoryBenchmark {
  private static final String ALICE = "tl_bench_alice_0123456789";
  private static final String BOB = "tl_bench_bob_0123456789";
  private static final String KEPT_SECTION = "## The existing benchmarks, before and after";

  private static final int STEPS = 200;
  private static final int APPEND_RUNS = 20;
  private static final int PATH_RUNS = 5;
  private static final int WARMUP_RUNS = 3;
  private static final int LIVE_THREADS = 20;
  private static final int LIST_PAGES = 10;
  private static final int SEED_BATCH = 10_000;
  private static final int DIRECT_WARMUP = 100;
  private static final int DIRECT_SEQUENTIAL = 100;
  private static final int CLIENTS = 8;
  private static final Duration THROUGHPUT_WARMUP = Duration.ofSeconds(10);
  private static final Duration THROUGHPUT_WINDOW = Duration.ofSeconds(15);

  private HistoryBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "benchmarks/HISTORY-REPORT.md");
    int stored = Integer.parseInt(System.getProperty("bench.history.threads", "1000000"));
    String before = System.getProperty("bench.history.before", "");
    int rounds = Integer.parseInt(System.getProperty("bench.history.rounds", "2"));
    StringBuilder out = new StringBuilder();
    out.append("# History store benchmark (issue 26)\n\n")
        .append(Percentiles.provenance("HistoryBenchmark"))
        .append(" One run (`-Pbench-history`).")
        .append(" The machine is shared with other engineers' builds and tests (2 cores): every")
        .append(" number carries that load; the load average is given beside each part.\n\n");
    out.append(memorySteps());
    System.err.println(out);
    out.append(residentMemory(stored));
    System.err.println(out);
    out.append(directPath(before, rounds));
    write(report, out.toString());
    System.err.println("report written to " + report.toAbsolutePath());
  }

  // --- 1. a memory step's cost by its place in the run ---

  private static String memorySteps() throws Exception {
    String load = loadAverage();
    List<List<Double>> appends = new ArrayList<>();
    List<List<Double>> steps = new ArrayList<>();
    List<List<Double>> stores = new ArrayList<>();
    int toolCalls = 0;
    try (History history = History.temporary()) {
      for (int r = 0; r < WARMUP_RUNS + APPEND_RUNS; r++) {
        List<Double> run = appendRun(history, "append-" + r);
        if (r >= WARMUP_RUNS) {
          appends.add(run);
        }
      }
      for (int r = 0; r < WARMUP_RUNS + PATH_RUNS; r++) {
        WorkerStepCosts.Steps run = WorkerStepCosts.run(history, "path-" + r, STEPS);
        if (r >= WARMUP_RUNS) {
          steps.add(run.stepMillis());
          stores.add(run.storeMillis());
          toolCalls = run.toolCalls();
        }
      }
    }
    int pathSteps = steps.stream().mapToInt(List::size).min().orElseThrow();
    StringBuilder text = new StringBuilder("## A memory step's cost by its place in the run\n\n");
    text.append("Target: step 200 of a 200-step run within 1.2× of step 10. Load average at the")
        .append(" start: ")
        .append(load)
        .append(".\n\n")
        .append("- `MemoryLog.append`: ")
        .append(APPEND_RUNS)
        .append(" runs of ")
        .append(STEPS)
        .append(" steps, each entry what the worker appends for a tool step (about 1 KB of")
        .append(" JSON), in one SQLite history store (after ")
        .append(WARMUP_RUNS)
        .append(" runs not counted); each step timed alone.\n")
        .append("- The worker's whole per-step path (`WorkerStepCosts`): ")
        .append(PATH_RUNS)
        .append(" computer runs of ")
        .append(STEPS)
        .append(" commands (")
        .append(toolCalls)
        .append(" tool calls, ")
        .append(pathSteps)
        .append(" memory steps each: a step after each model reply and after each tool result),")
        .append(" the real agent loop, scripted model, sandbox client and store writes, against an")
        .append(" in-process sandbox stand-in; a step is from the previous step's write to its own")
        .append(" (model call, tool call, its events and its memory step appended); \"store\" is")
        .append(" the events and memory writes of the step alone. The turn limit of a real run is")
        .append(" 30 model calls, so a 200-step run is reached here, not through the REST API.\n\n")
        .append("Median over the runs of each step, then the median of those over the steps")
        .append(" named:\n\n")
        .append("| measurement | steps 1–10 ms | steps 191–200 ms | ratio | steps ")
        .append(pathSteps - 9)
        .append("–")
        .append(pathSteps)
        .append(" ms | ratio | met (≤ 1.2× at 200) |\n|---|---|---|---|---|---|---|\n");
    text.append(stepRow("`MemoryLog.append`", appends, STEPS));
    text.append(stepRow("worker's step, store writes (events + memory)", stores, pathSteps));
    text.append(stepRow("worker's whole step", steps, pathSteps));
    text.append('\n');
    return text.toString();
  }

  /** One run of {@link #STEPS} appends; the time of each. */
  private static List<Double> appendRun(History history, String name) {
    RunKey key = new RunKey("bench", "thread-" + name, name);
    List<Double> times = new ArrayList<>();
    for (int step = 1; step <= STEPS; step++) {
      String entry = toolStep(step);
      long start = System.nanoTime();
      history.memory().append(key, step, entry);
      times.add((System.nanoTime() - start) / 1e6);
    }
    return times;
  }

  /** What the worker's memory store appends for a tool result: the message, counters, one line. */
  private static String toolStep(int step) {
    String output = ("step " + step + " output line\\n").repeat(40);
    return "{\"messages\":[{\"role\":\"tool\",\"content\":\"{\\\"exit_code\\\":0,\\\"output\\\":\\\""
        + output
        + "\\\"}\",\"toolCallId\":\"call_scripted_0_"
        + step
        + "\"}],\"actions\":[\"Ran `echo step "
        + step
        + "`\"],\"usage\":{\"inputTokens\":"
        + (200 * step)
        + ",\"outputTokens\":"
        + (40 * step)
        + ",\"cachedTokens\":0},\"lastEventSeq\":"
        + (3 * step)
        + ",\"snapshot\":null,\"turns\":"
        + step
        + "}";
  }

  private static String stepRow(String name, List<List<Double>> runs, int lastStep) {
    double early = medianOfSteps(runs, 1, 10);
    double at200 = medianOfSteps(runs, 191, 200);
    double last = medianOfSteps(runs, lastStep - 9, lastStep);
    return String.format(
        Locale.ROOT,
        "| %s | %.3f | %.3f | %.2f× | %.3f | %.2f× | %s |%n",
        name,
        early,
        at200,
        at200 / early,
        last,
        last / early,
        at200 / early <= 1.2 ? "yes" : "**no**");
  }

  /** The median, over steps {@code from}..{@code to} (from 1), of each step's median over runs. */
  private static double medianOfSteps(List<List<Double>> runs, int from, int to) {
    List<Double> perStep = new ArrayList<>();
    for (int step = from; step <= to; step++) {
      int index = step - 1;
      perStep.add(Percentiles.of(runs.stream().map(run -> run.get(index)).toList()).median());
    }
    return Percentiles.of(perStep).median();
  }

  // --- 2. resident memory with a million stored threads ---

  /** What one seeded thread is made of: a real Thread and its Run, as the API held them. */
  private record Template(String namespace, String thread, String threadJson, String runJson) {}

  private static String residentMemory(int stored) throws Exception {
    Path root = Files.createTempDirectory("threadline-history-bench");
    try {
      Template template = template(root.resolve("template"));
      System.err.println("history benchmark: template thread " + template.thread());
      Row empty = residentRow(root.resolve("empty"), template, 0);
      System.err.println("history benchmark: " + empty);
      Row seeded = residentRow(root.resolve("seeded"), template, stored);
      System.err.println("history benchmark: " + seeded);
      double ratio = (double) seeded.rssAfterGcMb() / empty.rssAfterGcMb();
      StringBuilder text = new StringBuilder("## Resident memory with stored threads\n\n");
      text.append("Target: the local mode's resident memory with 1,000,000 stored threads within")
          .append(" 1.2× of an empty store's, when few are live. The local mode runs as its own")
          .append(" process (`ThreadlineLocal`, default JVM options); the stored threads are")
          .append(
              " archived threads (`archived_threads`: a real Thread's JSON, renamed) with their")
          .append(" run records (`runs`: message, answer and the archived Run's JSON), inserted")
          .append(" with batched SQL while it is stopped. Then it is started on that folder, ")
          .append(LIVE_THREADS)
          .append(" live threads are made over HTTP (greetings), ")
          .append(LIST_PAGES)
          .append(" pages of `GET /v1/threads?limit=100` are listed (the first pages: live")
          .append(" threads, then archived ones), and `VmRSS` is read from /proc after `jcmd <pid>")
          .append(" GC.run`.\n\n")
          .append(
              "| stored threads | history.db MB | start → REST answers s | list 100 median ms |")
          .append(" list 100 max ms | RSS before GC MB | RSS after GC MB | load average |\n")
          .append("|---|---|---|---|---|---|---|---|\n")
          .append(empty.markdown())
          .append(seeded.markdown())
          .append(
              String.format(
                  Locale.ROOT,
                  "%nRatio after GC: %.2f× — %s.%n%n",
                  ratio,
                  ratio <= 1.2 ? "met" : "**not met**"));
      return text.toString();
    } finally {
      deleteTree(root);
    }
  }

  private record Row(
      int stored,
      long historyMb,
      double startSeconds,
      Percentiles list,
      long rssMb,
      long rssAfterGcMb,
      String load) {
    String markdown() {
      return String.format(
          Locale.ROOT,
          "| %,d | %d | %.1f | %.2f | %.2f | %d | %d | %s |%n",
          stored,
          historyMb,
          startSeconds,
          list.median(),
          list.max(),
          rssMb,
          rssAfterGcMb,
          load);
    }
  }

  private static Map<String, String> environment() {
    Map<String, String> env = LocalProcess.users(Map.of(ALICE, "alice", BOB, "bob"));
    // A million stored threads hold more than the default share of the store (1GB a user).
    env.put("THREADLINE_LIMITS_HISTORYBYTES", "1TB");
    env.put("THREADLINE_LIMITS_THREADS", "1000000");
    env.put("THREADLINE_LIMITS_RUNS", "1000000");
    return env;
  }

  /** A real thread and its run, made over HTTP and read back from the embedded Kubernetes API. */
  private static Template template(Path dataDir) throws Exception {
    try (LocalProcess local = LocalProcess.start(current(), dataDir, environment())) {
      HttpClient http = HttpClient.newHttpClient();
      awaitReady(http, local.apiUrl());
      SseTimings.post(http, local.apiUrl() + "/v1/threads", ALICE, DirectLoad.GREETING);
      Config config = Config.fromKubeconfig(Files.readString(dataDir.resolve("kubeconfig")));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        GenericKubernetesResource thread =
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Thread")
                .inAnyNamespace()
                .list()
                .getItems()
                .getFirst();
        GenericKubernetesResource run =
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Run")
                .inNamespace(thread.getMetadata().getNamespace())
                .list()
                .getItems()
                .getFirst();
        return new Template(
            thread.getMetadata().getNamespace(),
            thread.getMetadata().getName(),
            Serialization.asJson(thread),
            Serialization.asJson(run));
      }
    }
  }

  private static Row residentRow(Path dataDir, Template template, int stored) throws Exception {
    // Started once, as both rows are: the users' namespaces exist and the store is migrated.
    try (LocalProcess first = LocalProcess.start(current(), dataDir, environment())) {
      awaitReady(HttpClient.newHttpClient(), first.apiUrl());
    }
    seed(dataDir.resolve("history.db"), template, stored);
    long historyMb = Files.size(dataDir.resolve("history.db")) >> 20;
    long started = System.nanoTime();
    try (LocalProcess local = LocalProcess.start(current(), dataDir, environment())) {
      HttpClient http = HttpClient.newHttpClient();
      awaitReady(http, local.apiUrl());
      double startSeconds = (System.nanoTime() - started) / 1e9;
      String threads = local.apiUrl() + "/v1/threads";
      for (int i = 0; i < LIVE_THREADS; i++) {
        DirectLoad.directResponse(SseTimings.post(http, threads, ALICE, DirectLoad.GREETING));
      }
      List<Double> lists = new ArrayList<>();
      for (int page = 0; page < LIST_PAGES; page++) {
        long start = System.nanoTime();
        HttpResponse<String> answer = get(http, threads + "?limit=100&offset=" + (page * 100));
        lists.add((System.nanoTime() - start) / 1e6);
        if (answer.statusCode() != 200) {
          throw new IllegalStateException("list answered " + answer.statusCode());
        }
      }
      long rss = local.residentMb();
      long afterGc = local.residentMbAfterGc();
      return new Row(
          stored, historyMb, startSeconds, Percentiles.of(lists), rss, afterGc, loadAverage());
    }
  }

  /**
   * {@code count} archived threads, each with its run record: the template renamed, created one
   * second apart going back from now, inserted in batches in one transaction each.
   */
  private static void seed(Path historyDb, Template template, int count) throws Exception {
    if (count == 0) {
      return;
    }
    Map<String, Object> run = Serialization.unmarshal(template.runJson(), Map.class);
    @SuppressWarnings("unchecked")
    String runName = (String) ((Map<String, Object>) run.get("metadata")).get("name");
    String threadPrefix = template.thread().substring(0, template.thread().lastIndexOf('-') + 1);
    String runPrefix = runName.substring(0, runName.lastIndexOf('-') + 1);
    Instant newest = Instant.now().minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
    long bytes = 0;
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + historyDb)) {
      db.setAutoCommit(false);
      try (PreparedStatement thread =
              db.prepareStatement(
                  "INSERT INTO archived_threads (namespace, name, created_at, archived_at, object,"
                      + " bytes) VALUES (?, ?, ?, ?, ?, ?)");
          PreparedStatement runs =
              db.prepareStatement(
                  "INSERT INTO runs (namespace, thread, name, sequence, message, response,"
                      + " created_at, archived, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        for (int i = 0; i < count; i++) {
          String suffix = UUID.randomUUID().toString().replace("-", "");
          String threadName = threadPrefix + suffix;
          String runNameNew = runPrefix + suffix;
          String created = newest.minusSeconds(i).toString();
          String threadJson = template.threadJson().replace(template.thread(), threadName);
          String runJson =
              template
                  .runJson()
                  .replace(runName, runNameNew)
                  .replace(template.thread(), threadName);
          thread.setString(1, template.namespace());
          thread.setString(2, threadName);
          thread.setString(3, created);
          thread.setString(4, created);
          thread.setString(5, threadJson);
          thread.setLong(6, threadJson.length() + 64);
          thread.addBatch();
          runs.setString(1, template.namespace());
          runs.setString(2, threadName);
          runs.setString(3, runNameNew);
          runs.setLong(4, 1);
          runs.setString(5, "Hello!");
          runs.setString(6, "Hello! How can I help you today?");
          runs.setString(7, created);
          runs.setString(8, runJson);
          runs.setLong(9, runJson.length() + 64);
          runs.addBatch();
          bytes += threadJson.length() + runJson.length() + 128;
          if ((i + 1) % SEED_BATCH == 0 || i == count - 1) {
            thread.executeBatch();
            runs.executeBatch();
            db.commit();
          }
        }
      }
      try (PreparedStatement usage =
              db.prepareStatement(
                  "INSERT INTO namespace_usage (namespace, bytes) VALUES (?, ?) ON CONFLICT"
                      + " (namespace) DO UPDATE SET bytes = bytes + excluded.bytes");
          PreparedStatement archived =
              db.prepareStatement(
                  "INSERT INTO archived_thread_counts (namespace, threads) VALUES (?, ?) ON"
                      + " CONFLICT (namespace) DO UPDATE SET threads = threads +"
                      + " excluded.threads")) {
        usage.setString(1, template.namespace());
        usage.setLong(2, bytes);
        usage.executeUpdate();
        archived.setString(1, template.namespace());
        archived.setLong(2, count);
        archived.executeUpdate();
        db.commit();
      }
    }
  }

  // --- 3. the direct path, this build against another commit's ---

  private static String directPath(String beforeRoot, int rounds) throws Exception {
    List<LocalProcess.Installation> installations = new ArrayList<>();
    if (!beforeRoot.isBlank()) {
      installations.add(
          LocalProcess.Installation.packaged(commitOf(beforeRoot), Path.of(beforeRoot)));
    }
    installations.add(current());
    StringBuilder text = new StringBuilder("## The direct path, before and after the store\n\n");
    text.append(
            "Each build's packaged local mode (`local/target`, as `./threadline-local` runs it)")
        .append(" started the same way as its own process on a fresh data folder, two users, the")
        .append(" per-key rate limit off (`THREADLINE_RATELIMIT_ENABLED=false`) and the object")
        .append(" limits raised; ")
        .append(DIRECT_WARMUP)
        .append(" greetings and ")
        .append(THROUGHPUT_WARMUP.toSeconds())
        .append(" s of 8-client load not counted, then ")
        .append(DIRECT_SEQUENTIAL)
        .append(" greetings one after another (POST /v1/threads → `direct.response`) and ")
        .append(CLIENTS)
        .append(" clients posting greetings for ")
        .append(THROUGHPUT_WINDOW.toSeconds())
        .append(" s. The builds take turns, ")
        .append(rounds)
        .append(" rounds, so the machine's load falls on both.\n\n")
        .append("| build | round | direct median ms | direct p99 ms | runs/s (8 clients) |")
        .append(" RSS MB | load average |\n|---|---|---|---|---|---|---|\n");
    for (int round = 1; round <= rounds; round++) {
      for (LocalProcess.Installation installation : installations) {
        String row = directRow(installation, round);
        System.err.println("history benchmark: " + row);
        text.append(row);
      }
    }
    return text.append('\n').toString();
  }

  private static String directRow(LocalProcess.Installation installation, int round)
      throws Exception {
    Path dataDir = Files.createTempDirectory("threadline-history-direct");
    Map<String, String> env = environment();
    env.put("THREADLINE_RATELIMIT_ENABLED", "false");
    try (LocalProcess local = LocalProcess.start(installation, dataDir, env)) {
      HttpClient http = HttpClient.newHttpClient();
      awaitReady(http, local.apiUrl());
      String threads = local.apiUrl() + "/v1/threads";
      DirectLoad.sequential(http, threads, ALICE, DIRECT_WARMUP);
      DirectLoad.throughput(threads, ALICE, CLIENTS, THROUGHPUT_WARMUP);
      Percentiles direct =
          Percentiles.of(DirectLoad.sequential(http, threads, ALICE, DIRECT_SEQUENTIAL));
      double runsPerSecond = DirectLoad.throughput(threads, ALICE, CLIENTS, THROUGHPUT_WINDOW);
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.2f | %.2f | %.1f | %d | %s |%n",
          installation.label(),
          round,
          direct.median(),
          direct.p99(),
          runsPerSecond,
          local.residentMb(),
          loadAverage());
    } finally {
      deleteTree(dataDir);
    }
  }

  private static String commitOf(String root) throws Exception {
    Process git = new ProcessBuilder("git", "-C", root, "log", "-1", "--format=%h (%s)").start();
    String line = new String(git.getInputStream().readAllBytes()).strip();
    git.waitFor();
    return line.length() > 60 ? line.substring(0, 57) + "…)" : line;
  }

  private static LocalProcess.Installation current() throws IOException {
    return LocalProcess.Installation.packaged("this build", Path.of("").toAbsolutePath());
  }

  // --- helpers ---

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + ALICE).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Until the API server answers (503 while its caches load). */
  private static void awaitReady(HttpClient http, String apiUrl) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    while (get(http, apiUrl + "/v1/threads?limit=1").statusCode() != 200) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the API server did not become ready");
      }
      Thread.sleep(200);
    }
  }

  static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** Writes the report; the hand-written section of the existing benchmarks' rows stays. */
  private static void write(Path report, String generated) throws IOException {
    String existing = Files.exists(report) ? Files.readString(report) : "";
    int kept = existing.indexOf(KEPT_SECTION);
    Files.writeString(
        report,
        generated.stripTrailing() + "\n" + (kept < 0 ? "" : "\n" + existing.substring(kept)));
  }
}
