package dev.threadline.runner.run;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventReader;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelProviders;
import dev.threadline.models.ModelSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Runs {@code runner run} in the test JVM and reads back what it printed. */
final class RunHarness {

  /** What one run printed. */
  record Output(int exitCode, String stdout, String stderr, List<RunnerEvent> events) {
    List<RunnerEventType> types() {
      return events.stream().map(RunnerEvent::type).toList();
    }

    List<RunnerEvent> ofType(RunnerEventType type) {
      return events.stream().filter(e -> e.type() == type).toList();
    }

    RunnerEvent last() {
      return events.getLast();
    }
  }

  private final Path dir;
  private final Map<String, String> env;
  private final Function<ModelSettings, ModelProvider> models;

  RunHarness(Path dir) {
    this(dir, Map.of(), ModelProviders::create);
  }

  RunHarness(Path dir, Map<String, String> env, Function<ModelSettings, ModelProvider> models) {
    this.dir = dir;
    this.env = env;
    this.models = models;
  }

  Path workspace() {
    return dir.resolve("workspace");
  }

  Output run(String runJson) {
    try {
      Path input = Files.writeString(dir.resolve("run.json"), runJson);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exit =
          new RunCommand(
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(err, true, StandardCharsets.UTF_8),
                  env,
                  models)
              .execute(
                  new String[] {
                    "--input", input.toString(), "--workspace", workspace().toString()
                  });
      String stdout = out.toString(StandardCharsets.UTF_8);
      return new Output(
          exit, stdout, err.toString(StandardCharsets.UTF_8), RunnerEventReader.readAll(stdout));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A minimal run.json for {@code message}, with the scripted model. */
  static String scriptedRun(String message) {
    return """
    {"runId":"run_test","threadId":"thread_test","model":{"provider":"scripted","model":"scripted-1"},
     "message":%s,"limits":{"maxTurns":10,"commandTimeoutSec":10,"outputLimitBytes":4096}}
    """
        .formatted(quote(message));
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
