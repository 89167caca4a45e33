package dev.threadline.core.events;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The kinds of event in a run's log: the operator's worker makes them as its agent loop goes and
 * appends them to the history store, where the api-server reads them for a thread's stream and logs
 * (the {@code type} of each stored event is its {@link #wireName}). The item kinds (planning,
 * reasoning, message, tool_call, file_change, setup, error) mirror the contract's {@code
 * response.item.completed} item types; {@code started}, {@code usage}, {@code result} and {@code
 * failed} frame the run.
 */
public enum RunnerEventType {
  /** {@code {run_id, model, workspace}}: the first event of every run. */
  STARTED("started"),
  /** {@code {text}}: one paragraph saying what the agent will do. */
  PLANNING("planning"),
  /** {@code {text}}: what the model wrote alongside tool calls. */
  REASONING("reasoning"),
  /** {@code {role: "assistant", text}}: what the model wrote when it ended its turn. */
  MESSAGE("message"),
  /** {@code {id, status, tool: {type, name, command?, path?, output, exit_code?}, duration_ms}}. */
  TOOL_CALL("tool_call"),
  /** {@code {path, change: create|modify|delete, additions, deletions}}. */
  FILE_CHANGE("file_change"),
  /** {@code {text}}: attachments placed, MCP servers started. */
  SETUP("setup"),
  /** {@code {message}}: something went wrong but the run goes on. */
  ERROR("error"),
  /**
   * {@code {callId, kind: approval|question, tool, arguments, reason?, question?}}: the run waits
   * for a person before the call goes on (only in runs whose agent has an approval policy).
   */
  APPROVAL_REQUESTED("approval_requested"),
  /** {@code {input_tokens, output_tokens, cached_tokens}}: cumulative, after each model call. */
  USAGE("usage"),
  /**
   * {@code {response, actions, usage, diffs, duration_ms}}: the last event of a run that succeeded.
   */
  RESULT("result"),
  /** {@code {code, message}}: the last event of a run that failed. */
  FAILED("failed");

  private static final Map<String, RunnerEventType> BY_WIRE_NAME =
      Arrays.stream(values())
          .collect(Collectors.toUnmodifiableMap(RunnerEventType::wireName, Function.identity()));

  private final String wireName;

  RunnerEventType(String wireName) {
    this.wireName = wireName;
  }

  /** The event's {@code type} as the history store records it. */
  public String wireName() {
    return wireName;
  }

  /** Whether this event ends the run: nothing follows a {@code result} or {@code failed} event. */
  public boolean terminal() {
    return this == RESULT || this == FAILED;
  }

  /** The type whose wire name is {@code name}; empty for a type this version does not know. */
  public static Optional<RunnerEventType> fromWireName(String name) {
    return Optional.ofNullable(name == null ? null : BY_WIRE_NAME.get(name));
  }

  @Override
  public String toString() {
    return wireName;
  }
}
