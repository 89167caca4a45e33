package dev.threadline.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local mode as a service runs it: {@code ThreadlineLocal} in a JVM of its own, on a data
 * folder, reached over HTTP like any client would. Its resident memory and CPU time are read from
 * {@code /proc}, so what the benchmark itself allocates is never counted.
 */
final class LocalProcess implements AutoCloseable {
  private static final Pattern REST_API = Pattern.compile("REST API:\\s+(http://\\S+)");
  private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

  /** The kernel's clock ticks per second (USER_HZ), the unit of CPU times in /proc/pid/stat. */
  private static final double TICKS_PER_SECOND = 100.0;

  private final Process process;
  private final String apiUrl;
  private final Path log;

  private LocalProcess(Process process, String apiUrl, Path log) {
    this.process = process;
    this.apiUrl = apiUrl;
    this.log = log;
  }

  /**
   * Where a local mode's classes are: this build's class path, or a packaged local module ({@code
   * local/target}: its jar and {@code lib/classpath}, what {@code ./threadline-local} runs), e.g.
   * of another commit built in its own worktree.
   */
  record Installation(String label, String classPath, List<String> jvmOptions) {
    static Installation current() {
      return new Installation("this build", System.getProperty("java.class.path"), List.of());
    }

    static Installation packaged(String label, Path root) throws IOException {
      Path target = root.resolve("local/target");
      Path jar;
      try (var files = Files.list(target)) {
        jar =
            files
                .filter(f -> f.getFileName().toString().matches("threadline-local-.*\\.jar"))
                .filter(f -> !f.getFileName().toString().matches(".*-(sources|tests)\\.jar"))
                .findFirst()
                .orElseThrow(() -> new IOException("no local mode jar in " + target));
      }
      String lib = Files.readString(target.resolve("lib/classpath")).strip();
      return new Installation(label, jar + ":" + lib, jvmOptions(root));
    }

    /**
     * The options {@code ./threadline-local} starts the local mode with ({@code local/jvm.options};
     * none for a build from before that file).
     */
    private static List<String> jvmOptions(Path root) throws IOException {
      Path options = root.resolve("local/jvm.options");
      if (!Files.exists(options)) {
        return List.of();
      }
      return Files.readAllLines(options).stream()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .toList();
    }
  }

  /**
   * Starts the local mode on {@code dataDir} with {@code environment} added to this process's
   * (ports: any free one), and waits until it says where its REST API is.
   */
  static LocalProcess start(
      Installation installation, Path dataDir, Map<String, String> environment)
      throws IOException, InterruptedException {
    Files.createDirectories(dataDir);
    Path log = dataDir.resolve("local-mode.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(installation.jvmOptions());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(installation.classPath());
    command.add("dev.threadline.local.ThreadlineLocal");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("THREADLINE_DATA_DIR", dataDir.toString());
    env.put("THREADLINE_API_PORT", "0");
    env.put("THREADLINE_KUBE_PORT", "0");
    env.putAll(environment);
    Process process = builder.start();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the local mode exited with " + process.exitValue() + "; its log: " + tail(log));
      }
      Matcher url = REST_API.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (url.find()) {
        return new LocalProcess(process, url.group(1), log);
      }
      Thread.sleep(200);
    }
    process.destroyForcibly();
    throw new IllegalStateException("the local mode did not start in " + START_TIMEOUT);
  }

  /** The usual environment of a benchmark's local mode: two users and their keys. */
  static Map<String, String> users(Map<String, String> keysToUsers) {
    StringBuilder keys = new StringBuilder();
    keysToUsers.forEach((key, user) -> {
      keys.append(keys.isEmpty() ? "" : ",").append(key).append('=').append(user);
    });
    Map<String, String> env = new HashMap<>();
    env.put("THREADLINE_API_KEYS", keys.toString());
    return env;
  }

  String apiUrl() {
    return apiUrl;
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /** The process's resident set (VmRSS), in MiB. */
  long residentMb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    throw new IOException("no VmRSS for process " + pid());
  }

  /**
   * CPU seconds the service's JVM used so far (user + system, its own threads; its sandboxes are
   * processes of their own).
   */
  double cpuSeconds() throws IOException {
    String[] fields = stat();
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
  }

  /** CPU seconds of the process's children that ended (its sandboxes, once reaped). */
  double childCpuSeconds() throws IOException {
    String[] fields = stat();
    return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) / TICKS_PER_SECOND;
  }

  /** The fields of /proc/pid/stat after the command name (field 3 first). */
  private String[] stat() throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid() + "/stat"));
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
  }

  /** A full collection in the service's JVM ({@code jcmd <pid> GC.run}), then its resident set. */
  long residentMbAfterGc() throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process gc =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "GC.run")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!gc.waitFor(2, TimeUnit.MINUTES) || gc.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + pid() + " GC.run failed");
    }
    Thread.sleep(2_000); // the collector hands freed heap back to the system after it ends
    return residentMb();
  }

  /** How many bytes the process has logged so far. */
  long logBytes() throws IOException {
    return Files.size(log);
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = Files.newBufferedReader(log)) {
      reader.lines().forEach(lines::add);
    }
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /** Stops the local mode as Ctrl-C would, and waits for it. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
    }
  }
}
