package dev.threadline.runner.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.image.ImageInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner as its image runs it: the real bin/runner script, the layout's jars, and a runtime
 * jlink'ed from exactly the committed module list, in a home laid out like /opt/threadline
 * (target/runner-home). The processes get an empty environment but PATH and HOME, like a container,
 * so nothing of the test's JDK can stand in for a missing module.
 */
class RunnerOnLinkedRuntimeIT {
  static final Path RUNNER_HOME = ImageInputs.module().resolve("target/runner-home");
  private static final Pattern SERVING = Pattern.compile("Serving .* on 127\\.0\\.0\\.1:(\\d+) ");

  @TempDir Path dir;

  @BeforeAll
  static void linkTheRuntime() throws IOException {
    if (Files.exists(RUNNER_HOME)) {
      try (Stream<Path> files = Files.walk(RUNNER_HOME)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    Files.createDirectories(RUNNER_HOME.resolve("bin"));
    // As in the Dockerfile but for --strip-debug, which only saves space and costs 3 s here.
    jlink(
        "--add-modules",
        String.join(",", RunnerImageLayout.jreModules()),
        "--no-man-pages",
        "--no-header-files",
        "--output",
        RUNNER_HOME.resolve("jre").toString());
    Files.createSymbolicLink(RUNNER_HOME.resolve("lib"), RunnerImageLayout.LIB);
    // A copy, not a link: the script finds its home as its own folder's parent.
    Files.copy(
        RunnerImageLayout.SCRIPT,
        RUNNER_HOME.resolve("bin/runner"),
        StandardCopyOption.COPY_ATTRIBUTES);
  }

  @Test
  void printsItsVersion() throws Exception {
    Output version = runner(Map.of(), "version");

    assertThat(version.exitCode()).as(version.stderr()).isZero();
    assertThat(version.stdout()).isEqualTo("threadline-runner 0.1.0\n");
  }

  /**
   * Jackson, logback (logback.xml), the JDK's HTTP server and processes: {@code runner serve} runs
   * a command that writes a file named outside ASCII although the environment sets no locale, and
   * lists it.
   */
  @Test
  void servesAToolCallAndTheWorkspace() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    Path stderr = dir.resolve("serve-stderr");
    Process serve = serve(Map.of(), workspace, "serve");
    try {
      URI base = serving(stderr);
      HttpClient http = HttpClient.newHttpClient();

      HttpResponse<String> call =
          http.send(
              HttpRequest.newBuilder(base.resolve("/calls"))
                  .header("Authorization", "Bearer image-token")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          """
                          {"id":"tool_1","tool":"run_command",
                           "arguments":{"command":"echo salut > café.txt"},
                           "limits":{"timeoutSeconds":10,"outputLimitBytes":4096}}
                          """))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
      assertThat(call.body()).contains("\"succeeded\":true", "\"exitCode\":0");
      HttpResponse<String> files =
          http.send(
              HttpRequest.newBuilder(base.resolve("/files?path=."))
                  .header("Authorization", "Bearer image-token")
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

      assertThat(files.statusCode()).isEqualTo(200);
      assertThat(files.body()).contains("\"name\":\"café.txt\"");
      assertThat(Files.readString(workspace.resolve("café.txt"))).isEqualTo("salut\n");
      // logback.xml's pattern (level, then the abbreviated logger): logback read its configuration.
      assertThat(Files.readString(stderr))
          .contains("INFO  d.t.runner.serve.ServeCommand - Serving");
    } finally {
      serve.destroy();
      serve.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The Dockerfile's training ({@code runner aot-training}: serve, one call of each kind) records
   * an AOT cache that {@code runner serve} then uses: with {@code AOTMode=on} the JVM refuses to
   * start unless the cache fits the runtime and the jars.
   */
  @Test
  void theServeTrainingRecordsAnAotCacheThatServeUses() throws Exception {
    Path cache = RUNNER_HOME.resolve("runner.aot");
    Files.deleteIfExists(cache);
    try {
      Output trained =
          runner(Map.of("THREADLINE_RUNNER_AOT_OUTPUT", cache.toString()), "aot-training");
      assertThat(trained.exitCode()).as(trained.stderr()).isZero();
      assertThat(cache).isNotEmptyFile();

      Path workspace = Files.createDirectories(dir.resolve("cached-workspace"));
      Process serve = serve(Map.of("JAVA_TOOL_OPTIONS", "-XX:AOTMode=on"), workspace, "cached");
      try {
        URI base = serving(dir.resolve("cached-stderr"));
        HttpResponse<String> health =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(base.resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
      } finally {
        serve.destroy();
        serve.waitFor(10, TimeUnit.SECONDS);
      }
    } finally {
      Files.deleteIfExists(cache); // the other tests run as an image without a cache would
    }
  }

  /**
   * Starts {@code bin/runner serve} of {@code workspace} on a free loopback port with the
   * credential {@code image-token}; its output goes to {@code <name>-stdout} and {@code
   * <name>-stderr}.
   */
  private Process serve(Map<String, String> env, Path workspace, String name) throws IOException {
    Path token = Files.writeString(dir.resolve(name + "-token"), "image-token");
    return start(
        env,
        dir.resolve(name + "-stdout"),
        dir.resolve(name + "-stderr"),
        "serve",
        "--workspace",
        workspace.toString(),
        "--port",
        "0",
        "--address",
        "127.0.0.1",
        "--token-file",
        token.toString());
  }

  /** The address a serve announced on {@code stderr}, once it serves. */
  private static URI serving(Path stderr) {
    return URI.create("http://127.0.0.1:" + awaitLine(stderr, SERVING).group(1));
  }

  record Output(int exitCode, String stdout, String stderr) {}

  private Output runner(Map<String, String> env, String... args) throws Exception {
    Path stdout = dir.resolve("stdout");
    Path stderr = dir.resolve("stderr");
    Process process = start(env, stdout, stderr, args);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "bin/runner "
              + String.join(" ", args)
              + " did not end in 60 s: "
              + Files.readString(stderr));
    }
    return new Output(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
  }

  /** Starts bin/runner with only PATH, HOME and {@code env}, its output going to the two files. */
  private Process start(Map<String, String> env, Path stdout, Path stderr, String... args)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(RUNNER_HOME.resolve("bin/runner").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString()));
    builder.environment().putAll(env);
    return builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
  }

  /** Waits for a line of {@code log} that {@code pattern} finds, and returns its match. */
  private static Matcher awaitLine(Path log, Pattern pattern) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> pattern.matcher(Files.readString(log)), Matcher::find);
  }

  private static void jlink(String... args) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8);
    int exit =
        ToolProvider.findFirst("jlink")
            .orElseThrow(() -> new AssertionError("no jlink in this JDK"))
            .run(print, print, args);
    assertThat(exit)
        .as("jlink %s: %s", String.join(" ", args), output.toString(StandardCharsets.UTF_8))
        .isZero();
  }
}
