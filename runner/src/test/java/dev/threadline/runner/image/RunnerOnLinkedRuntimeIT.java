package dev.threadline.runner.image;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventReader;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.image.ImageInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
   * Jackson (run.json, events), logback (logback.xml), processes: an agent run end to end, in a
   * workspace with a file name outside ASCII although the environment sets no locale.
   */
  @Test
  void runsAScriptedRunToItsResult() throws Exception {
    Path input =
        Files.writeString(
            dir.resolve("run.json"),
            """
            {"runId":"run_image","model":{"provider":"scripted","model":"scripted-1"},
             "message":"Run `echo hello > a.txt` then `echo salut > café.txt`",
             "limits":{"maxTurns":5,"commandTimeoutSec":10}}
            """);
    Path workspace = Files.createDirectories(dir.resolve("workspace"));

    Output run =
        runner(Map.of(), "run", "--input", input.toString(), "--workspace", workspace.toString());

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<RunnerEvent> events = RunnerEventReader.readAll(run.stdout());
    assertThat(events.getLast().type()).isEqualTo(RunnerEventType.RESULT);
    assertThat(events)
        .filteredOn(e -> e.type() == RunnerEventType.FILE_CHANGE)
        .extracting(change -> change.text("path"))
        .containsExactlyInAnyOrder("a.txt", "café.txt");
    assertThat(Files.readString(workspace.resolve("a.txt"))).isEqualTo("hello\n");
    // logback.xml's pattern (level, then the abbreviated logger): logback read its configuration.
    assertThat(run.stderr())
        .contains("INFO  d.threadline.models.ModelProviders - Model provider scripted");
  }

  /**
   * The Dockerfile's training run records an AOT cache that a later run can use: with {@code
   * AOTMode=on} the JVM refuses to start unless the cache fits the runtime and the jars.
   */
  @Test
  void theTrainingRunRecordsAnAotCacheThatLaterRunsUse() throws Exception {
    Path cache = RUNNER_HOME.resolve("runner.aot");
    Files.deleteIfExists(cache);
    Path training = RunnerImageLayout.ROOT.resolve("aot/training-run.json");
    Path trainingWorkspace = Files.createDirectories(dir.resolve("training"));
    try {
      Output trained =
          runner(
              Map.of("THREADLINE_RUNNER_AOT_OUTPUT", cache.toString()),
              "run",
              "--input",
              training.toString(),
              "--workspace",
              trainingWorkspace.toString());
      assertThat(trained.exitCode()).as(trained.stderr()).isZero();
      assertThat(RunnerEventReader.readAll(trained.stdout()).getLast().type())
          .isEqualTo(RunnerEventType.RESULT);
      assertThat(cache).isNotEmptyFile();

      Output cached = runner(Map.of("JAVA_TOOL_OPTIONS", "-XX:AOTMode=on"), "version");

      assertThat(cached.exitCode()).as(cached.stderr()).isZero();
      assertThat(cached.stdout()).isEqualTo("threadline-runner 0.1.0\n");
    } finally {
      Files.deleteIfExists(cache); // the other tests run as an image without a cache would
    }
  }

  record Output(int exitCode, String stdout, String stderr) {}

  private Output runner(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(RUNNER_HOME.resolve("bin/runner").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString()));
    builder.environment().putAll(env);
    Path stdout = dir.resolve("stdout");
    Path stderr = dir.resolve("stderr");
    Process process =
        builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
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
