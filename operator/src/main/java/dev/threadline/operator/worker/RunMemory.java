package dev.threadline.operator.worker;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.Role;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a run has done so far, enough for any worker to go on from its last recorded step: the
 * conversation with the model (the tool results included), the usage the model reported, the
 * result's action lines, the last event's number and the workspace's baseline for diffs.
 *
 * @param lastEventSeq the number of the last event emitted before this memory was written
 * @param snapshot the sandbox's workspace snapshot id, or null before it was taken
 * @param turns model calls so far
 */
public record RunMemory(
    List<ChatMessage> messages,
    Usage usage,
    List<String> actions,
    long lastEventSeq,
    String snapshot,
    int turns) {

  public RunMemory {
    messages = List.copyOf(messages);
    actions = List.copyOf(actions);
    usage = usage == null ? Usage.ZERO : usage;
  }

  /**
   * The memory before the first model call; {@code routing} is what routing already spent on this
   * run (the model's hand-off call), so the run's usage counts it.
   */
  static RunMemory opening(
      List<ChatMessage> messages, String snapshot, long lastEventSeq, Usage routing) {
    return new RunMemory(messages, routing, List.of(), lastEventSeq, snapshot, 0);
  }

  /** The same memory on another baseline: the workspace snapshot of a sandbox taken again. */
  RunMemory withSnapshot(String baseline) {
    return new RunMemory(messages, usage, actions, lastEventSeq, baseline, turns);
  }

  RunMemory afterReply(ChatMessage reply, Usage total, long eventSeq) {
    List<ChatMessage> next = new ArrayList<>(messages);
    next.add(reply);
    return new RunMemory(next, total, actions, eventSeq, snapshot, turns + 1);
  }

  RunMemory afterTool(ChatMessage toolResult, String action, long eventSeq) {
    List<ChatMessage> next = new ArrayList<>(messages);
    next.add(toolResult);
    List<String> lines = new ArrayList<>(actions);
    if (action != null) {
      lines.add(action);
    }
    return new RunMemory(next, usage, lines, eventSeq, snapshot, turns);
  }

  /** The model's last turn when it asked for tools: those of its calls that have no result yet. */
  List<ToolCall> unansweredCalls() {
    for (int i = messages.size() - 1; i >= 0; i--) {
      ChatMessage message = messages.get(i);
      if (message.role() == Role.ASSISTANT) {
        List<String> answered =
            messages.subList(i + 1, messages.size()).stream().map(ChatMessage::toolCallId).toList();
        return message.toolCalls().stream().filter(call -> !answered.contains(call.id())).toList();
      }
    }
    return List.of();
  }

  /** The model's final text, when its last turn ended the run (it asked for no tools). */
  Optional<String> finalReply() {
    ChatMessage last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
    return last != null && last.role() == Role.ASSISTANT && last.toolCalls().isEmpty()
        ? Optional.of(last.content())
        : Optional.empty();
  }

  /** The sandbox's id of the next tool call: numbered over the run, the same on every worker. */
  String nextCallId() {
    return "tool_" + (messages.stream().filter(m -> m.role() == Role.TOOL).count() + 1);
  }
}
