package dev.threadline.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.errors.ApiException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
  @Test
  void readsEachTypeAndTreatsNullAsAbsent() {
    Map<String, Object> values = new HashMap<>();
    values.put("task", "hello");
    values.put("limit", 5);
    values.put("big", 7L);
    values.put("wait", false);
    values.put("title", null);
    ToolArguments arguments = new ToolArguments(values);
    assertThat(arguments.requiredText("task")).isEqualTo("hello");
    assertThat(arguments.text("title")).isNull();
    assertThat(arguments.wholeNumber("limit")).isEqualTo(5);
    assertThat(arguments.wholeNumber("big")).isEqualTo(7);
    assertThat(arguments.wholeNumber("offset")).isNull();
    assertThat(arguments.flag("wait", true)).isFalse();
    assertThat(arguments.flag("missing", true)).isTrue();
    assertThat(new ToolArguments(null).text("task")).isNull();
  }

  @Test
  void aWrongTypeOrAMissingArgumentIsA400NamingIt() {
    ToolArguments arguments =
        new ToolArguments(Map.of("task", 42, "limit", 2.5, "wait", "yes", "huge", 1L << 40));
    assertRefused(() -> arguments.requiredText("threadId"), "threadId is required");
    assertRefused(() -> arguments.text("task"), "task must be a string");
    assertRefused(() -> arguments.wholeNumber("limit"), "limit must be a whole number");
    assertRefused(() -> arguments.wholeNumber("huge"), "huge must be a whole number");
    assertRefused(() -> arguments.flag("wait", true), "wait must be true or false");
  }

  private static void assertRefused(Runnable read, String message) {
    assertThatThrownBy(read::run)
        .isInstanceOfSatisfying(
            ApiException.class,
            refused -> {
              assertThat(refused.kind().status()).isEqualTo(400);
              assertThat(refused.getMessage()).isEqualTo(message);
            });
  }
}
