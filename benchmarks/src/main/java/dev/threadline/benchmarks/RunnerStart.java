package dev.threadline.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

/**
 * An agent run as an agent Pod starts it: the runner image's {@code bin/runner} on a runtime
 * jlink'ed from its module list, running the image's AOT training input (a scripted run with three
 * commands) from process start to exit, first without and then with the AOT cache that the image
 * build records. Reads the runner module's image layout ({@code runner/target/image}).
 */
final class RunnerStart {
  /** A pair of measurements: without and with the AOT cache. */
  record Result(Percentiles withoutCache, Percentiles withCache) {}

  private RunnerStart() {}

  static Result measure(Path layout, int iterations) throws Exception {
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
    Files.createSymbolicLink(home.resolve("aot"), layout.resolve("aot").toAbsolutePath());
    Files.createDirectories(home.resolve("bin"));
    Files.copy(
        layout.resolve("bin/runner"),
        home.resolve("bin/runner"),
        StandardCopyOption.COPY_ATTRIBUTES);

    runs(home, 2, Map.of()); // the file system's caches, as on a node that ran the image before
    Percentiles without = Percentiles.of(runs(home, iterations, Map.of()));
    runs(home, 1, Map.of("THREADLINE_RUNNER_AOT_OUTPUT", home.resolve("runner.aot").toString()));
    Percentiles with = Percentiles.of(runs(home, iterations, Map.of()));
    return new Result(without, with);
  }

  private static List<Double> runs(Path home, int count, Map<String, String> env) throws Exception {
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path workspace = Files.createTempDirectory("threadline-runner-ws");
      ProcessBuilder builder =
          new ProcessBuilder(
                  home.resolve("bin/runner").toString(),
                  "run",
                  "--input",
                  home.resolve("aot/training-run.json").toString(),
                  "--workspace",
                  workspace.toString())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      // As in a container: nothing of this JVM's environment.
      builder.environment().clear();
      builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", workspace.toString()));
      builder.environment().putAll(env);
      long start = System.nanoTime();
      Process process = builder.start();
      if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException("bin/runner run failed in " + home);
      }
      millis.add((System.nanoTime() - start) / 1e6);
    }
    return millis;
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
