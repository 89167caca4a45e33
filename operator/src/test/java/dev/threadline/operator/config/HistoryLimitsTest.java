package dev.threadline.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryLimitsTest {
  @Test
  void defaultsAreAMebibyteOfOutputAnd256MebibytesOfWorkspace() {
    HistoryLimits limits = HistoryLimits.fromEnvironment(Map.of());
    assertThat(limits.toolOutput()).isEqualTo(1_048_576);
    assertThat(limits.workspaceArchive()).isEqualTo(268_435_456L);
    assertThat(limits.historyBytes()).isEqualTo(1L << 30);
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

  @Test
  void theHistoryQuotaIsReadAsTheApiServerReadsIt() {
    assertThat(quota("1GB")).isEqualTo(1L << 30);
    assertThat(quota("512MB")).isEqualTo(512L << 20);
    assertThat(quota("10kb")).isEqualTo(10_240);
    assertThat(quota("2000")).isEqualTo(2000);
    for (String bad : List.of("lots", "0", "1PB", "99999999999TB")) {
      assertThatThrownBy(() -> quota(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("THREADLINE_LIMITS_HISTORYBYTES");
    }
  }

  private static long quota(String value) {
    return HistoryLimits.fromEnvironment(Map.of("THREADLINE_LIMITS_HISTORYBYTES", value))
        .historyBytes();
  }
}
