package dev.threadline.models.scripted;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BacktickCommandsTest {

  @Test
  void findsInlineAndFencedCommandsInOrder() {
    String task =
        """
        First `git status`, then:
        ```sh
        cd app
        make test
        ```
        and finally ``  `` `echo done`.
        """;

    assertThat(BacktickCommands.extract(task))
        .containsExactly("git status", "cd app\nmake test", "echo done");
  }

  @Test
  void keepsAFenceWithoutShellTag() {
    assertThat(BacktickCommands.extract("```\nls -la\n```")).containsExactly("ls -la");
    assertThat(BacktickCommands.extract("```python3 -V```")).containsExactly("python3 -V");
  }

  @Test
  void ignoresUnclosedAndMultiLineInlineBackticks() {
    assertThat(BacktickCommands.extract("it's a `stray\nbacktick and `pwd`"))
        .containsExactly("pwd");
    assertThat(BacktickCommands.extract("no end `here")).isEmpty();
    assertThat(BacktickCommands.extract("plain text")).isEmpty();
  }

  @Test
  void readsCommandResultsAsJsonOrText() {
    assertThat(CommandResult.parse("{\"exit_code\":3,\"output\":\"boom\"}"))
        .isEqualTo(new CommandResult(3, "boom"));
    assertThat(CommandResult.parse("{\"exitCode\":0,\"stdout\":\"a\",\"stderr\":\"b\"}"))
        .isEqualTo(new CommandResult(0, "a\nb"));
    assertThat(CommandResult.parse("{not json")).isEqualTo(new CommandResult(null, "{not json"));
    assertThat(CommandResult.parse("hello")).isEqualTo(new CommandResult(null, "hello"));
  }

  @Test
  void tailKeepsTheLastLines() {
    CommandResult result = new CommandResult(0, "1\n2\n3\n4\n5\n6\n7\n");

    assertThat(result.tail(3, 100)).isEqualTo("…\n5\n6\n7");
    assertThat(result.tail(10, 3)).isEqualTo("…6\n7");
  }
}
