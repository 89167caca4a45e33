package dev.threadline.operator.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.ToolCall;
import java.util.Map;
import java.util.Optional;

/**
 * One run's tool calls in its sandbox, with what a failover needs: a call that may have been in
 * flight when the previous worker stopped is first asked after ({@code GET /calls/{id}}); a
 * finished one gives its recorded result, a running one is joined by posting the same id (the
 * sandbox runs an id once), and one the sandbox never received is reported to the model as
 * interrupted rather than guessed at.
 */
final class SandboxCalls {
  static final String INTERRUPTED =
      "the call was interrupted: the worker running this agent stopped before the sandbox received"
          + " it, so it did not run. Call the tool again if it is still needed.";

  private final SandboxClient client;
  private final SandboxAddress address;
  private final SandboxClient.Limits limits;

  SandboxCalls(SandboxClient client, SandboxAddress address, RunTask.Limits limits) {
    this.client = client;
    this.address = address;
    this.limits =
        new SandboxClient.Limits(limits.commandTimeoutSeconds(), limits.outputLimitBytes());
  }

  /**
   * @param resumed whether the call may have been sent by a worker that stopped
   * @param output gets the command's output as the sandbox produces it
   * @throws SandboxException when the sandbox cannot be reached
   */
  SandboxToolResult run(
      String id, SandboxTools.SandboxTool tool, ToolCall call, boolean resumed, TextDeltas output) {
    Map<String, Object> arguments;
    try {
      arguments = call.arguments();
    } catch (RuntimeException e) {
      return failure(tool, call, "the arguments are not a JSON object: " + e.getMessage());
    }
    if (resumed) {
      Optional<SandboxClient.CallState> state = client.state(address, id);
      if (state.isEmpty()) {
        return failure(tool, call, INTERRUPTED);
      }
      if (state.get().finished()) {
        return checked(state.get().result(), tool, call);
      }
    }
    try {
      return checked(
          client.call(address, id, tool.name(), arguments, limits, output).result(), tool, call);
    } catch (SandboxException e) {
      if (e.status() / 100 == 4) {
        return failure(tool, call, e.getMessage()); // the sandbox refused these arguments
      }
      throw e;
    }
  }

  JsonNode diff(String snapshot) {
    return client.diff(address, snapshot);
  }

  /** How long a sandbox just reported ready may take to answer. */
  static final java.time.Duration STARTUP_PATIENCE = java.time.Duration.ofSeconds(60);

  void put(RunTask.WorkspaceFile file) {
    client.put(address, file.path(), file.content());
  }

  String snapshot() {
    return client.snapshot(address);
  }

  private static SandboxToolResult checked(
      JsonNode result, SandboxTools.SandboxTool tool, ToolCall call) {
    try {
      return SandboxToolResult.from(result, tool.type());
    } catch (SandboxException e) {
      return failure(tool, call, e.getMessage());
    }
  }

  private static SandboxToolResult failure(
      SandboxTools.SandboxTool tool, ToolCall call, String reason) {
    Object command =
        tool.name().equals(SandboxTools.RUN_COMMAND) ? argument(call, "command") : null;
    Object path = command == null ? argument(call, "path") : null;
    return SandboxToolResult.failure(
        tool.type(),
        command == null ? null : command.toString(),
        path == null ? null : path.toString(),
        reason);
  }

  private static Object argument(ToolCall call, String name) {
    try {
      return call.arguments().get(name);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
