package dev.threadline.runner.tools;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run_command}: runs a shell command with {@code /bin/sh -c} in the workspace, stdout and
 * stderr interleaved as a terminal shows them, with no stdin. A command that outlives its timeout
 * is killed with everything it started and reports exit code 124, as coreutils' {@code timeout}
 * does.
 */
public final class CommandTool implements Tool {

  public static final String NAME = "run_command";

  /** The exit code of a command stopped at its timeout. */
  public static final int TIMEOUT_EXIT_CODE = 124;

  private static final Logger log = LoggerFactory.getLogger(CommandTool.class);

  /**
   * How long to wait for the output pipe to close once the shell is gone (background jobs may hold
   * it).
   */
  private static final Duration DRAIN_WAIT = Duration.ofSeconds(1);

  private static final File NO_INPUT = new File("/dev/null");

  private final Path workspace;
  private final Duration timeout;
  private final int outputLimitBytes;
  private final Set<String> hiddenEnvironment;
  private final Map<String, String> addedEnvironment;
  private final OutputListener listener;
  private final CommandGroups groups;
  private final Map<Process, Optional<CommandGroups.Group>> running = new ConcurrentHashMap<>();
  private volatile boolean cancelled;

  /**
   * @param hiddenEnvironment names of the runner's environment variables that commands must not see
   *     (the model API key, MCP tokens): the model could otherwise print them
   */
  public CommandTool(
      Path workspace, Duration timeout, int outputLimitBytes, Set<String> hiddenEnvironment) {
    this(
        workspace,
        timeout,
        outputLimitBytes,
        hiddenEnvironment,
        Map.of(),
        (bytes, offset, length) -> {},
        CommandGroups.none());
  }

  /**
   * @param addedEnvironment variables commands get on top of the runner's own (bound late)
   * @param listener sees the output as it is produced (the sandbox streams it), on the thread that
   *     reads it
   * @param groups where each command gets a cgroup of its own (or none)
   */
  public CommandTool(
      Path workspace,
      Duration timeout,
      int outputLimitBytes,
      Set<String> hiddenEnvironment,
      Map<String, String> addedEnvironment,
      OutputListener listener,
      CommandGroups groups) {
    this.groups = groups;
    this.addedEnvironment = Map.copyOf(addedEnvironment);
    this.workspace = workspace;
    this.timeout = timeout;
    this.outputLimitBytes = outputLimitBytes;
    this.hiddenEnvironment = Set.copyOf(hiddenEnvironment);
    this.listener = listener;
  }

  /** Receives a command's output bytes while it runs. */
  @FunctionalInterface
  public interface OutputListener {
    void output(byte[] bytes, int offset, int length);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String type() {
    return "command_execution";
  }

  @Override
  public ToolResult run(Map<String, Object> arguments) {
    String command = ToolArguments.requiredString(arguments, "command");
    if (cancelled) {
      return ToolResult.failure(type(), command, null, "the run was cancelled");
    }
    Process process;
    Optional<CommandGroups.Group> group;
    try {
      group = groups.open();
    } catch (IOException e) {
      return ToolResult.failure(
          type(), command, null, "cannot make the command's cgroup: " + e.getMessage());
    }
    try {
      ProcessBuilder builder =
          new ProcessBuilder(
                  group.map(g -> g.command(command)).orElse(List.of("/bin/sh", "-c", command)))
              .directory(workspace.toFile())
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
      hiddenEnvironment.forEach(builder.environment()::remove);
      builder.environment().putAll(addedEnvironment);
      process = builder.start();
    } catch (IOException e) {
      group.ifPresent(CommandGroups.Group::close);
      return ToolResult.failure(type(), command, null, "cannot start /bin/sh: " + e.getMessage());
    }
    running.put(process, group);
    if (cancelled) {
      // cancelAll came between the check above and the put: it did not see this process.
      kill(process, group);
    }
    try {
      return await(command, process, group);
    } finally {
      running.remove(process);
      group.ifPresent(CommandGroups.Group::close);
    }
  }

  private ToolResult await(String command, Process process, Optional<CommandGroups.Group> group) {
    BoundedOutput output = new BoundedOutput(outputLimitBytes);
    Thread reader =
        Thread.ofPlatform()
            .daemon()
            .name("command-output")
            .start(() -> copy(process.getInputStream(), output, listener));
    boolean exited;
    try {
      exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exited = false;
    }
    if (!exited) {
      kill(process, group);
    }
    try {
      reader.join(DRAIN_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (cancelled) {
      // Killed by cancelAll (the shell then exits by SIGKILL, 137) or at the timeout after it.
      return ToolResult.command(
          command,
          exited ? process.exitValue() : TIMEOUT_EXIT_CODE,
          withNote(output.text(), "[command stopped: the run was cancelled]"));
    }
    if (!exited) {
      String note = "[command timed out after " + timeout.toSeconds() + " s and was killed]";
      return ToolResult.command(command, TIMEOUT_EXIT_CODE, withNote(output.text(), note));
    }
    return ToolResult.command(command, process.exitValue(), output.text());
  }

  /** Stops every command still running, e.g. when the Pod is being deleted. */
  public void cancelAll() {
    cancelled = true;
    running.forEach(CommandTool::kill);
  }

  /** Kills the command with everything it started: its whole cgroup where it has one. */
  private static void kill(Process process, Optional<CommandGroups.Group> group) {
    killTree(process);
    group.ifPresent(CommandGroups.Group::killAll);
  }

  private static void killTree(Process process) {
    // The whole tree is listed before anything dies, so no child escapes by being re-parented; the
    // shell dies first, so it cannot run the rest of its script when it sees a child killed.
    List<ProcessHandle> tree =
        Stream.concat(Stream.of(process.toHandle()), process.descendants()).toList();
    tree.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void copy(InputStream in, BoundedOutput output, OutputListener listener) {
    byte[] buffer = new byte[8192];
    try (in) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        output.write(buffer, 0, n);
        listener.output(buffer, 0, n);
      }
    } catch (IOException e) {
      log.debug("Command output closed: {}", e.getMessage());
    }
  }

  private static String withNote(String output, String note) {
    return output.isEmpty() || output.endsWith("\n") ? output + note : output + "\n" + note;
  }
}
