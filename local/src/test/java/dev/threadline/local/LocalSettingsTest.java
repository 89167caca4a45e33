package dev.threadline.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSettingsTest {
  @Test
  void defaultsSuitALaptop() {
    LocalSettings settings = LocalSettings.fromEnvironment(Map.of());
    assertThat(settings.apiAddress()).isEqualTo("127.0.0.1");
    assertThat(settings.apiPort()).isEqualTo(8080);
    assertThat(settings.dataDir().toString()).endsWith(".threadline");
    assertThat(settings.apiKeys()).isEmpty();
  }

  @Test
  void keysNameTheirUsers() {
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of("THREADLINE_API_KEYS", "keyA=alice, keyB=bob"));
    assertThat(settings.apiKeys())
        .containsExactlyInAnyOrderEntriesOf(Map.of("keyA", "alice", "keyB", "bob"));
  }

  @Test
  void malformedInputNamesTheVariableWithoutEchoingKeys() {
    assertThatThrownBy(
            () -> LocalSettings.fromEnvironment(Map.of("THREADLINE_API_KEYS", "secretkey")))
        .hasMessageContaining("THREADLINE_API_KEYS")
        .hasMessageNotContaining("secretkey");
    assertThatThrownBy(() -> LocalSettings.fromEnvironment(Map.of("THREADLINE_API_PORT", "http")))
        .hasMessageContaining("THREADLINE_API_PORT");
  }

  @Test
  void namespacesAreTheUserIdWhenUsableAndAStableHashOtherwise() {
    assertThat(TenantProvisioner.namespaceFor("alice")).isEqualTo("alice");
    assertThat(TenantProvisioner.namespaceFor("Alice@Example.com"))
        .startsWith("user-")
        .hasSize(17)
        .isEqualTo(TenantProvisioner.namespaceFor("Alice@Example.com"));
    assertThat(TenantProvisioner.namespaceFor("default")).startsWith("user-");
  }
}
