package dev.threadline.runner.run;

import java.util.List;
import java.util.Map;

/**
 * Everything one run needs, read from {@code run.json} (see the runner's README). Secrets are never
 * in it: the model key comes from {@code THREADLINE_MODEL_API_KEY}, MCP tokens from the variables
 * {@link McpServer#bearerTokenEnv()} names, and MCP env values written {@code $NAME} from the
 * runner's environment.
 *
 * @param runId the Run's id, {@code run_...}
 * @param threadId the Thread's id, {@code thread_...}
 * @param model which model to call
 * @param instructions the agent's instructions (system prompt); may be empty
 * @param history the thread's earlier messages, oldest first
 * @param message the task
 * @param attachments files to place under {@code attachments/} in the workspace
 * @param documentation reference texts added to the instructions
 * @param mcpServers MCP servers whose tools the agent may use
 * @param limits how far the run may go
 */
public record RunInput(
    String runId,
    String threadId,
    ModelChoice model,
    String instructions,
    List<HistoryMessage> history,
    String message,
    List<Attachment> attachments,
    List<Documentation> documentation,
    List<McpServer> mcpServers,
    Limits limits) {

  public RunInput {
    history = List.copyOf(history);
    attachments = List.copyOf(attachments);
    documentation = List.copyOf(documentation);
    mcpServers = List.copyOf(mcpServers);
  }

  /**
   * @param baseUrl null for the provider's public endpoint
   */
  public record ModelChoice(String provider, String model, String baseUrl) {}

  /**
   * @param role {@code user} or {@code assistant}
   */
  public record HistoryMessage(String role, String content) {}

  /**
   * @param path where the file is now; run.json gives it relative to its own folder, the reader
   *     resolves it
   */
  public record Attachment(String name, String mediaType, String path) {}

  public record Documentation(String title, String content) {}

  /**
   * An MCP server.
   *
   * @param type {@code stdio} (a subprocess) or {@code http} (streamable HTTP; SSE when the URL
   *     ends in /sse)
   * @param name a short name, letters, digits, {@code _} and {@code -}; tools appear as {@code
   *     mcp__<name>__<tool>}
   * @param env for stdio: extra variables; a value {@code $NAME} is read from the runner's
   *     environment
   * @param bearerTokenEnv for http: the variable holding the bearer token; null for none
   */
  public record McpServer(
      String type,
      String name,
      String command,
      List<String> args,
      Map<String, String> env,
      String url,
      String bearerTokenEnv,
      boolean enabled,
      int startupTimeoutSec,
      int toolTimeoutSec) {

    public static final String STDIO = "stdio";
    public static final String HTTP = "http";

    public McpServer {
      args = List.copyOf(args);
      env = Map.copyOf(env);
    }
  }

  /**
   * @param maxTurns the most model calls in the run
   * @param commandTimeoutSec how long one command may run
   * @param outputLimitBytes the most output of one tool call kept
   * @param maxOutputTokens the most tokens one model reply may have
   */
  public record Limits(
      int maxTurns, int commandTimeoutSec, int outputLimitBytes, int maxOutputTokens) {
    public static final Limits DEFAULT = new Limits(30, 300, 65_536, 4096);
  }
}
