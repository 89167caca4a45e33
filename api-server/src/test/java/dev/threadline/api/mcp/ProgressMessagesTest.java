package dev.threadline.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class ProgressMessagesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void anEventIsItsType() {
    assertThat(ProgressMessages.describe(StreamEvents.computerStarting("thread_a", "u")))
        .isEqualTo("computer.starting");
  }

  @Test
  void aCommandSaysWhatRanAndHowItEnded() {
    ObjectNode item = JSON.createObjectNode().put("type", "tool_call");
    item.putObject("tool")
        .put("type", "command_execution")
        .put("command", "ls")
        .put("exit_code", 2);
    assertThat(ProgressMessages.describe(StreamEvents.itemCompleted(item)))
        .isEqualTo("response.item.completed tool_call: ls (exit 2)");
  }

  @Test
  void aFailureSaysWhy() {
    ObjectNode json = JSON.createObjectNode().put("type", StreamEvents.RESPONSE_FAILED);
    json.putObject("error").put("message", "usage exhausted");
    assertThat(ProgressMessages.describe(new StreamEvent(StreamEvents.RESPONSE_FAILED, json)))
        .isEqualTo("response.failed: usage exhausted");
  }

  @Test
  void aLongCommandIsCut() {
    ObjectNode item = JSON.createObjectNode().put("type", "tool_call");
    item.putObject("tool").put("command", "x".repeat(10_000));
    String line = ProgressMessages.describe(StreamEvents.itemCompleted(item));
    assertThat(line).hasSize(ProgressMessages.MAX_CHARS).endsWith("…");
  }
}
