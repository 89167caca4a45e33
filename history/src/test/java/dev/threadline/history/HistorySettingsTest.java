package dev.threadline.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistorySettingsTest {
  @Test
  void withoutAUrlTheStoreIsTheSqliteFileGiven() {
    HistorySettings settings =
        HistorySettings.fromEnvironment(Map.of(), Path.of("/data/history.db"));
    assertThat(settings.url()).isEqualTo("jdbc:sqlite:/data/history.db");
    assertThat(settings.engine()).isEqualTo(Engine.SQLITE);
  }

  @Test
  void aPostgresUrlWithCredentials() {
    HistorySettings settings =
        HistorySettings.fromEnvironment(
            Map.of(
                HistorySettings.URL_VARIABLE,
                    "jdbc:postgresql://db:5432/threadline?sslmode=verify-full",
                HistorySettings.USER_VARIABLE, "threadline",
                HistorySettings.PASSWORD_VARIABLE, "s3cret",
                HistorySettings.POOL_SIZE_VARIABLE, "20"),
            null);
    assertThat(settings.engine()).isEqualTo(Engine.POSTGRESQL);
    assertThat(settings.poolSize()).isEqualTo(20);
    assertThat(settings.toString()).doesNotContain("s3cret").doesNotContain("sslmode");
  }

  @Test
  void otherDatabasesAndBadNumbersAreRefusedByName() {
    assertThatThrownBy(() ->
            HistorySettings.fromEnvironment(
                Map.of(HistorySettings.URL_VARIABLE, "jdbc:mysql://db/x?password=p"), null))
        .hasMessageContaining("jdbc:mysql:")
        .hasMessageNotContaining("password");
    assertThatThrownBy(() ->
            HistorySettings.fromEnvironment(
                Map.of(
                    HistorySettings.URL_VARIABLE, "jdbc:postgresql://db/x",
                    HistorySettings.POOL_SIZE_VARIABLE, "many"),
                null))
        .hasMessageContaining(HistorySettings.POOL_SIZE_VARIABLE);
  }
}
