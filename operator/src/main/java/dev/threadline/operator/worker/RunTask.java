package dev.threadline.operator.worker;

import dev.threadline.crds.agent.ApprovalPolicy;
import dev.threadline.models.ChatMessage;
import dev.threadline.operator.worker.mcp.McpServerPlan;
import java.util.List;

/**
 * What the agent of one run is asked: which model, the system prompt and the opening messages (the
 * thread's history, then the task), and the limits of its loop.
 *
 * @param provider the model provider the agent names
 * @param model the model name
 * @param files placed in the workspace before its baseline for diffs is taken
 * @param mcpServers the enabled MCP servers of its environment
 * @param approvals the agent's approval policy, null when it has none (no call waits)
 */
public record RunTask(
    String provider,
    String model,
    String instructions,
    List<ChatMessage> opening,
    String plan,
    List<WorkspaceFile> files,
    Limits limits,
    List<McpServerPlan> mcpServers,
    ApprovalPolicy approvals) {

  public RunTask {
    opening = List.copyOf(opening);
    files = List.copyOf(files);
    mcpServers = List.copyOf(mcpServers);
  }

  /** A task without MCP servers. */
  public RunTask(
      String provider,
      String model,
      String instructions,
      List<ChatMessage> opening,
      String plan,
      List<WorkspaceFile> files,
      Limits limits) {
    this(provider, model, instructions, opening, plan, files, limits, List.of(), null);
  }

  /** A task of an agent without an approval policy. */
  public RunTask(
      String provider,
      String model,
      String instructions,
      List<ChatMessage> opening,
      String plan,
      List<WorkspaceFile> files,
      Limits limits,
      List<McpServerPlan> mcpServers) {
    this(provider, model, instructions, opening, plan, files, limits, mcpServers, null);
  }

  /** A file the sandbox's workspace gets before the agent starts (an attachment). */
  public record WorkspaceFile(String path, byte[] content) {}

  /**
   * @param maxTurns the most model calls in the run
   * @param commandTimeoutSeconds how long one tool call may take in the sandbox
   * @param outputLimitBytes the most output a tool call keeps
   * @param maxOutputTokens the most tokens one model reply may have
   */
  public record Limits(
      int maxTurns, int commandTimeoutSeconds, int outputLimitBytes, int maxOutputTokens) {
    public static final Limits DEFAULT = new Limits(30, 300, 65_536, 4096);
  }
}
