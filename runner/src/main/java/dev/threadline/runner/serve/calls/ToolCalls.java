package dev.threadline.runner.serve.calls;

import dev.threadline.runner.serve.FileApiException;
import dev.threadline.runner.tools.CommandGroups;
import dev.threadline.runner.tools.CommandTool;
import dev.threadline.runner.tools.Tool;
import dev.threadline.runner.tools.ToolRegistry;
import dev.threadline.runner.tools.ToolResult;
import dev.threadline.runner.tools.WorkspacePaths;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool calls of one sandbox, by id: each runs once, on its own virtual thread, with the
 * runner's built-in tools. A call whose id was seen is never run again: the same call is joined
 * (running) or answered from its record (finished); another call under a used id is refused.
 */
public final class ToolCalls implements AutoCloseable {
  /**
   * Finished calls remembered for replays. Past this the oldest are forgotten, so a sandbox that
   * lives for days does not grow without end; a worker asks about a call within seconds of losing
   * its connection, not thousands of calls later.
   */
  static final int REMEMBERED_FINISHED = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(ToolCalls.class);

  private final Path workspace;
  private final WorkspacePaths paths;
  private final Map<String, ToolCallExecution> calls = new LinkedHashMap<>();

  private final Supplier<Map<String, String>> environment;
  private final CommandGroups groups;

  /**
   * @param environment variables bound late (a warm-pool sandbox's run's), added to commands'
   * @param groups where each command gets a cgroup of its own (or none)
   */
  public ToolCalls(
      Path workspace, Supplier<Map<String, String>> environment, CommandGroups groups) {
    this.workspace = workspace;
    this.groups = groups;
    this.environment = environment;
    this.paths = new WorkspacePaths(workspace);
  }

  /**
   * The execution of {@code request}: a new one, started now, or the one its id already names.
   *
   * @throws FileApiException 409 when the id names a different call
   */
  public synchronized ToolCallExecution submit(CallRequest request) {
    ToolCallExecution known = calls.get(request.id());
    if (known != null) {
      if (!known.request().sameCallAs(request)) {
        throw FileApiException.conflict(
            "call " + request.id() + " was received with another tool or other arguments");
      }
      return known;
    }
    forgetOldFinished();
    Utf8Chunks decoder = new Utf8Chunks();
    ToolCallExecution[] self = new ToolCallExecution[1];
    CommandTool commands =
        new CommandTool(
            workspace,
            request.limits().timeout(),
            request.limits().outputLimitBytes(),
            Set.of(),
            environment.get(),
            (bytes, offset, length) -> self[0].output(decoder.decode(bytes, offset, length)),
            groups);
    Tool tool = tool(request, commands);
    ToolCallExecution execution = new ToolCallExecution(request, commands::cancelAll);
    self[0] = execution;
    calls.put(request.id(), execution);
    Thread.ofVirtual().name("call-" + request.id()).start(() -> run(execution, tool));
    return execution;
  }

  public synchronized Optional<ToolCallExecution> find(String id) {
    return Optional.ofNullable(calls.get(id));
  }

  /** Kills every running call; their ids. */
  public List<String> cancelAll() {
    List<ToolCallExecution> running;
    synchronized (this) {
      running = calls.values().stream().filter(ToolCallExecution::running).toList();
    }
    running.forEach(ToolCallExecution::kill);
    return running.stream().map(ToolCallExecution::id).toList();
  }

  @Override
  public void close() {
    cancelAll();
  }

  private Tool tool(CallRequest request, CommandTool commands) {
    return ToolRegistry.builtIns(commands, paths, request.limits().outputLimitBytes()).stream()
        .filter(candidate -> candidate.name().equals(request.tool()))
        .findFirst()
        .orElseThrow(() -> FileApiException.badRequest("unknown tool " + request.tool()));
  }

  private static void run(ToolCallExecution execution, Tool tool) {
    long start = System.nanoTime();
    CallRequest request = execution.request();
    ToolResult result;
    try {
      result = ToolRegistry.execute(tool, request.argumentsJson());
    } catch (RuntimeException e) {
      LOG.warn("Call {} ({}) failed", request.id(), request.tool(), e);
      result = ToolResult.failure(tool.type(), null, null, "the sandbox failed to run the tool");
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    LOG.info("Call {} ({}) finished in {} ms", request.id(), request.tool(), millis);
    execution.finish(result, millis);
  }

  private void forgetOldFinished() {
    long finished = calls.values().stream().filter(call -> !call.running()).count();
    Iterator<ToolCallExecution> oldestFirst = calls.values().iterator();
    while (finished >= REMEMBERED_FINISHED && oldestFirst.hasNext()) {
      if (!oldestFirst.next().running()) {
        oldestFirst.remove();
        finished--;
      }
    }
  }
}
