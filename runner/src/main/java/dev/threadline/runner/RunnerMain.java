package dev.threadline.runner;

import dev.threadline.runner.aot.AotTraining;
import dev.threadline.runner.serve.ServeCommand;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;

/**
 * The program inside every sandbox Pod ({@code serve}) and schedule trigger Pod ({@code trigger}).
 * Subcommands keep one binary for everything a Pod of Threadline's may run. Stdout carries only
 * what a command answers ({@code version}); logs go to stderr.
 */
public final class RunnerMain {
  static final String VERSION = "0.1.0";

  private final Map<String, Function<String[], Integer>> commands;
  private final PrintStream out;
  private final PrintStream err;

  RunnerMain(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
    this.commands =
        Map.of(
            "version",
            this::version,
            "serve",
            args -> new ServeCommand(err).execute(args),
            "aot-training",
            args -> new AotTraining(err).execute(args));
  }

  public static void main(String[] args) {
    // Answers own the real stdout, in UTF-8 whatever the locale; anything else that prints to
    // System.out (a library, a stray println) lands on stderr with the logs.
    PrintStream answers =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    System.exit(new RunnerMain(answers, System.err).execute(args));
  }

  int execute(String[] args) {
    if (args.length == 0 || !commands.containsKey(args[0])) {
      err.println(
          "usage: runner <"
              + String.join("|", commands.keySet().stream().sorted().toList())
              + "> [options]");
      return 2;
    }
    return commands.get(args[0]).apply(Arrays.copyOfRange(args, 1, args.length));
  }

  private int version(String[] args) {
    out.println("threadline-runner " + VERSION);
    return 0;
  }
}
