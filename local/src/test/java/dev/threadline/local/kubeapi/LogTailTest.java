package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogTailTest {

  @ParameterizedTest
  @CsvSource(
      nullValues = "-",
      value = {
        "'a\nb\nc\n', 2, 'b\nc\n'",
        "'a\nb\nc',   2, 'b\nc'",
        "'a\nb\nc\n', 5, 'a\nb\nc\n'",
        "'a\nb\nc\n', 0, ''",
        "'a\nb\nc\n', -, 'a\nb\nc\n'",
        "'a\nb\nc\n', -1, 'a\nb\nc\n'",
        "'',          3, ''",
        "'\n\n',      1, '\n'",
      })
  void keepsTheLastLines(String log, Long lines, String expected) {
    byte[] tail = LogTail.lastLines(log.getBytes(StandardCharsets.UTF_8), lines);

    assertThat(new String(tail, StandardCharsets.UTF_8)).isEqualTo(expected);
  }
}
