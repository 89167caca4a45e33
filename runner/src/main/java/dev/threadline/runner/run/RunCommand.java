package dev.threadline.runner.run;

import dev.threadline.core.events.RunnerEventWriter;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code runner run --input <run.json> --workspace <dir>}: runs the agent and prints its events on
 * stdout. Exit codes: 0 the run succeeded, 1 it failed (the last line says why), 2 the command line
 * or run.json is wrong (stderr says which field). SIGTERM stops the run with {@code failed}
 * "cancelled".
 */
public final class RunCommand {

  static final String USAGE = "usage: runner run --input <run.json> --workspace <dir>";

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> env;
  private final Function<ModelSettings, ModelProvider> models;

  public RunCommand(
      PrintStream out,
      PrintStream err,
      Map<String, String> env,
      Function<ModelSettings, ModelProvider> models) {
    this.out = out;
    this.err = err;
    this.env = env;
    this.models = models;
  }

  public int execute(String[] args) {
    Map<String, String> options;
    try {
      options = options(args);
    } catch (IllegalArgumentException e) {
      err.println("runner run: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    RunInput input;
    try {
      input = RunInputReader.read(Path.of(options.get("--input")));
    } catch (InvalidRunInputException e) {
      err.println("runner run: " + e.getMessage());
      return 2;
    }
    RunSession session =
        new RunSession(
            input,
            Path.of(options.get("--workspace")),
            env,
            models,
            new RunEvents(new RunnerEventWriter(out)));
    // SIGTERM (Pod deletion, activeDeadlineSeconds) runs shutdown hooks: end the run with a last
    // line.
    Thread onTermination = new Thread(session::cancel, "runner-sigterm");
    Runtime.getRuntime().addShutdownHook(onTermination);
    try {
      return session.run();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onTermination);
      } catch (IllegalStateException shuttingDown) {
        // The hook is already running: it will finish the run's output.
      }
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      if (!name.equals("--input") && !name.equals("--workspace")) {
        throw new IllegalArgumentException("unknown option '" + arg + "'");
      }
      String value;
      if (arg.contains("=")) {
        value = arg.substring(arg.indexOf('=') + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(name + " needs a value");
      }
      if (value.isBlank()) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      options.put(name, value);
    }
    for (String required : new String[] {"--input", "--workspace"}) {
      if (!options.containsKey(required)) {
        throw new IllegalArgumentException(required + " is required");
      }
    }
    return options;
  }
}
