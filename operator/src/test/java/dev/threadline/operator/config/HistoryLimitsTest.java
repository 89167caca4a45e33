package dev.threadline.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryLimitsTest {
  @Test
  void defaultsAreAMebibyteOfOutputAnd256MebibytesOfWorkspace() {
    HistoryLimits limits = HistoryLimits.fromEnvironment(Map.of());
    assertThat(limits.toolOutput()).isEqualTo(1_048_576);
    assertThat(limits.workspaceArchive()).isEqualTo(268_435_456L);
    assertThat(OperatorSettings.defaults().history()).isEqualTo(limits);
  }

  @Test
  void settingsAreReadAndBadValuesNameTheVariable() {
    assertThat(
            HistoryLimits.fromEnvironment(
                Map.of(
                    "THREADLINE_TOOL_OUTPUT_LIMIT", "4096",
                    "THREADLINE_WORKSPACE_ARCHIVE_LIMIT", "1024")))
        .isEqualTo(new HistoryLimits(4096, 1024));
    assertThatThrownBy(
            () -> HistoryLimits.fromEnvironment(Map.of("THREADLINE_TOOL_OUTPUT_LIMIT", "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("THREADLINE_TOOL_OUTPUT_LIMIT");
    assertThatThrownBy(
            () -> HistoryLimits.fromEnvironment(Map.of("THREADLINE_WORKSPACE_ARCHIVE_LIMIT", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("THREADLINE_WORKSPACE_ARCHIVE_LIMIT");
  }
}
