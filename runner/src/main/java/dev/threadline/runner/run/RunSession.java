package dev.threadline.runner.run;

import dev.threadline.core.events.RunnerFailureCode;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.Redaction;
import dev.threadline.runner.mcp.McpConnections;
import dev.threadline.runner.run.RunInput.McpServer;
import dev.threadline.runner.tools.CommandTool;
import dev.threadline.runner.tools.Tool;
import dev.threadline.runner.tools.ToolRegistry;
import dev.threadline.runner.tools.WorkspacePaths;
import dev.threadline.runner.workspace.FileDiff;
import dev.threadline.runner.workspace.WorkspaceDiff;
import dev.threadline.runner.workspace.WorkspaceSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run, start to end: started, setup (attachments, MCP servers), planning, the agent loop, the
 * workspace's changes, and the last line ({@code result} or {@code failed}). The workspace is never
 * cleaned: the next message of the thread sees what this one left.
 */
public final class RunSession {

  private static final Logger log = LoggerFactory.getLogger(RunSession.class);

  private final RunInput input;
  private final Path workspace;
  private final Map<String, String> env;
  private final Function<ModelSettings, ModelProvider> models;
  private final RunEvents events;
  private final ActionLog actions = new ActionLog();
  private volatile boolean cancelled;
  private volatile CommandTool commands;
  private volatile McpConnections mcp = McpConnections.none();

  /**
   * @param env the runner's environment: the model key, MCP tokens and {@code $NAME} values come
   *     from it
   * @param models makes the model client (the real factory is {@code ModelProviders::create})
   */
  public RunSession(
      RunInput input,
      Path workspace,
      Map<String, String> env,
      Function<ModelSettings, ModelProvider> models,
      RunEvents events) {
    this.input = input;
    this.workspace = workspace.toAbsolutePath().normalize();
    this.env = Map.copyOf(env);
    this.models = models;
    this.events = events;
  }

  /**
   * Runs to the end; returns the process exit code: 0 after {@code result}, 1 after {@code failed}.
   */
  public int run() {
    long start = System.nanoTime();
    try {
      return runAgent(start);
    } catch (RuntimeException e) {
      log.error("Run {} failed", input.runId(), e);
      events.failed(
          RunnerFailureCode.EXECUTION_FAILED,
          redact("the runner failed: " + e.getClass().getSimpleName() + ": " + e.getMessage()));
      return 1;
    } finally {
      mcp.close();
    }
  }

  /**
   * Stops the run from another thread (the JVM's shutdown hook on SIGTERM): kills the running
   * command, writes {@code failed} "cancelled" unless the run already wrote its last line, stops
   * the MCP servers.
   */
  public void cancel() {
    cancelled = true;
    CommandTool running = commands;
    if (running != null) {
      running.cancelAll();
    }
    events.failed(RunnerFailureCode.EXECUTION_FAILED, "cancelled");
    mcp.close();
  }

  private int runAgent(long start) {
    ModelSettings settings;
    try {
      settings = modelSettings();
    } catch (IllegalArgumentException e) {
      events.started(input.runId(), String.valueOf(input.model().model()), workspace.toString());
      events.failed(RunnerFailureCode.EXECUTION_FAILED, redact(e.getMessage()));
      return 1;
    }
    createWorkspace();
    events.started(input.runId(), settings.model(), workspace.toString());

    Attachments.Placement placement = Attachments.place(input.attachments(), workspace);
    if (!placement.placed().isEmpty()) {
      events.setup(
          "Placed "
              + placement.placed().size()
              + (placement.placed().size() == 1 ? " attachment" : " attachments")
              + " in "
              + Attachments.FOLDER
              + "/: "
              + String.join(", ", placement.placed()));
    }
    placement.problems().forEach(events::error);
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);

    RunInput.Limits limits = input.limits();
    commands =
        new CommandTool(
            workspace,
            Duration.ofSeconds(limits.commandTimeoutSec()),
            limits.outputLimitBytes(),
            hiddenEnvironment());
    mcp =
        McpConnections.start(
            input.mcpServers(), env, workspace, limits.outputLimitBytes(), mcpListener());
    List<Tool> tools =
        new ArrayList<>(
            ToolRegistry.builtIns(
                commands, new WorkspacePaths(workspace), limits.outputLimitBytes()));
    tools.addAll(mcp.tools());
    ToolRegistry registry = new ToolRegistry(tools);

    events.planning(Planner.plan(input.message(), registry.names(), placement.placed().size()));

    ModelProvider model;
    try {
      model = models.apply(settings);
    } catch (IllegalArgumentException e) {
      // The factory's answer to an unknown provider or a missing key; it never quotes the key.
      events.failed(RunnerFailureCode.EXECUTION_FAILED, redact(e.getMessage()));
      return 1;
    }
    try (model) {
      AgentLoop loop =
          new AgentLoop(
              model,
              settings.model(),
              registry,
              events,
              actions,
              limits,
              () -> cancelled,
              this::redact);
      AgentLoop.Outcome outcome =
          loop.run(
              AgentPrompt.instructions(input, workspace.toString()), AgentPrompt.messages(input));
      return finish(outcome, loop, before, start);
    }
  }

  private int finish(
      AgentLoop.Outcome outcome, AgentLoop loop, WorkspaceSnapshot before, long start) {
    List<FileDiff> diffs = WorkspaceDiff.between(before, WorkspaceSnapshot.take(workspace));
    diffs.forEach(events::fileChange);
    if (outcome instanceof AgentLoop.Outcome.Failed failed) {
      events.failed(failed.code(), failed.message());
      return 1;
    }
    String response = ((AgentLoop.Outcome.Finished) outcome).response();
    events.result(
        response, actions.lines(), loop.usage(), diffs, (System.nanoTime() - start) / 1_000_000);
    return 0;
  }

  /** Provider, model and endpoint from run.json; the key (and the timeout) from the environment. */
  private ModelSettings modelSettings() {
    ModelSettings fromEnv = ModelSettings.fromEnvironment(env);
    RunInput.ModelChoice choice = input.model();
    String provider = choice.provider() != null ? choice.provider() : fromEnv.provider();
    String model =
        choice.model() != null
            ? choice.model()
            : (choice.provider() != null ? null : fromEnv.model());
    String baseUrl = choice.provider() != null ? choice.baseUrl() : fromEnv.baseUrl();
    return new ModelSettings(provider, model, baseUrl, fromEnv.apiKey(), fromEnv.timeout());
  }

  /** Commands must not see the secrets the runner holds for itself. */
  private Set<String> hiddenEnvironment() {
    Set<String> hidden = new HashSet<>(Set.of(ModelSettings.ENV_API_KEY));
    for (McpServer server : input.mcpServers()) {
      if (server.bearerTokenEnv() != null) {
        hidden.add(server.bearerTokenEnv());
      }
    }
    return hidden;
  }

  private McpConnections.Listener mcpListener() {
    return new McpConnections.Listener() {
      @Override
      public void started(String server, List<String> toolNames) {
        events.setup(
            "Started MCP server "
                + server
                + " with "
                + toolNames.size()
                + (toolNames.size() == 1 ? " tool: " : " tools: ")
                + String.join(", ", toolNames));
      }

      @Override
      public void failed(String server, String reason) {
        events.error("MCP server " + server + " is not available: " + redact(reason));
      }
    };
  }

  private void createWorkspace() {
    try {
      Files.createDirectories(workspace);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot create the workspace " + workspace + ": " + e.getMessage(), e);
    }
  }

  private String redact(String message) {
    String safe = Redaction.redact(message, env.get(ModelSettings.ENV_API_KEY));
    for (McpServer server : input.mcpServers()) {
      if (server.bearerTokenEnv() != null) {
        safe = Redaction.redact(safe, env.get(server.bearerTokenEnv()));
      }
    }
    return safe;
  }
}
