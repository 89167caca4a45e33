package dev.threadline.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

/**
 * A sandbox as its Pod starts it: the runner image's {@code bin/runner serve} on a runtime jlink'ed
 * from its module list, from process start to the first answer of {@code /health} (the readiness
 * probe's path), without and then with the AOT cache the image build records ({@code runner
 * aot-training}, as the Dockerfile runs it). Reads the runner module's image layout ({@code
 * runner/target/image}). {@code java ... RunnerStart [iterations]} measures it alone.
 */
public final class RunnerStart {
  private static final Duration START_LIMIT = Duration.ofSeconds(120);

  private RunnerStart() {}

  /** Starts without the AOT cache, then with it. */
  record Starts(Percentiles plain, Percentiles aotCache) {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Starts starts = measure(Path.of("runner", "target", "image"), iterations);
    System.out.println(Percentiles.TABLE_HEAD);
    System.out.println(
        Percentiles.row("`runner serve` start → `/health`, no AOT cache", starts.plain()));
    System.out.println(
        Percentiles.row("`runner serve` start → `/health`, AOT cache", starts.aotCache()));
  }

  static Starts measure(Path layout, int iterations) throws Exception {
    Path home = Files.createTempDirectory("threadline-runner-home");
    jlink(
        "--add-modules",
        String.join(",", modules(layout.resolve("jre-modules"))),
        "--strip-debug",
        "--no-man-pages",
        "--no-header-files",
        "--output",
        home.resolve("jre").toString());
    Files.createSymbolicLink(home.resolve("lib"), layout.resolve("lib").toAbsolutePath());
    Files.createDirectories(home.resolve("bin"));
    Files.copy(
        layout.resolve("bin/runner"),
        home.resolve("bin/runner"),
        StandardCopyOption.COPY_ATTRIBUTES);

    starts(home, 2); // the file system's caches, as on a node that ran the image before
    Percentiles plain = Percentiles.of(starts(home, iterations));
    train(home);
    starts(home, 2);
    return new Starts(plain, Percentiles.of(starts(home, iterations)));
  }

  /** The Dockerfile's training: bin/runner then finds {@code runner.aot} in its home. */
  private static void train(Path home) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(home.resolve("bin/runner").toString(), "aot-training")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().clear();
    builder
        .environment()
        .putAll(
            Map.of(
                "PATH",
                "/usr/bin:/bin",
                "HOME",
                home.toString(),
                "THREADLINE_RUNNER_AOT_OUTPUT",
                home.resolve("runner.aot").toString()));
    Process training = builder.start();
    if (!training.waitFor(120, TimeUnit.SECONDS) || training.exitValue() != 0) {
      training.destroyForcibly();
      throw new IllegalStateException("runner aot-training failed");
    }
  }

  private static List<Double> starts(Path home, int count) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path workspace = Files.createTempDirectory("threadline-runner-ws");
      Path token =
          Files.writeString(workspace.resolveSibling(workspace.getFileName() + ".token"), "t");
      int port = freePort();
      ProcessBuilder builder =
          new ProcessBuilder(
                  home.resolve("bin/runner").toString(),
                  "serve",
                  "--workspace",
                  workspace.toString(),
                  "--port",
                  Integer.toString(port),
                  "--address",
                  "127.0.0.1",
                  "--token-file",
                  token.toString())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      // As in a container: nothing of this JVM's environment.
      builder.environment().clear();
      builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", workspace.toString()));
      long start = System.nanoTime();
      Process process = builder.start();
      try {
        awaitHealthy(http, URI.create("http://127.0.0.1:" + port + "/health"), process);
        millis.add((System.nanoTime() - start) / 1e6);
      } finally {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
    return millis;
  }

  /** Asks {@code /health} until it answers 200 (a benchmark may poll; the product never does). */
  private static void awaitHealthy(HttpClient http, URI health, Process process) throws Exception {
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (System.nanoTime() < deadline && process.isAlive()) {
      try {
        if (http.send(
                    HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(2);
    }
    throw new IllegalStateException("bin/runner serve did not become healthy: " + health);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static List<String> modules(Path list) throws IOException {
    return Files.readAllLines(list).stream()
        .filter(line -> !line.isBlank() && !line.startsWith("#"))
        .toList();
  }

  private static void jlink(String... args) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8);
    int exit =
        ToolProvider.findFirst("jlink")
            .orElseThrow(() -> new IllegalStateException("no jlink in " + Runtime.version()))
            .run(print, print, args);
    if (exit != 0) {
      throw new IllegalStateException("jlink failed: " + output.toString(StandardCharsets.UTF_8));
    }
  }
}
