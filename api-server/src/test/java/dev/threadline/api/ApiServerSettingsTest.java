package dev.threadline.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.network.AllowedTargets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiServerSettingsTest {
  @Test
  void defaultsSuitAClusterDeployment() {
    ApiServerSettings settings = ApiServerSettings.fromEnvironment(Map.of());

    assertThat(settings.address()).isEqualTo("0.0.0.0");
    assertThat(settings.port()).isEqualTo(8080);
    assertThat(settings.systemNamespace()).isEqualTo("threadline-system");
    assertThat(settings.managementPort()).isEqualTo(9090);
  }

  @Test
  void modelPricesAreTheOperatorsAndMalformedOnesAreNamed() {
    assertThat(ApiServerSettings.fromEnvironment(Map.of()).modelPricing().isPriced("gpt-4.1-mini"))
        .isFalse();
    ApiServerSettings priced =
        ApiServerSettings.fromEnvironment(
            Map.of("THREADLINE_MODEL_PRICES", "gpt-4.1-mini=0.4/1.6"));
    assertThat(priced.modelPricing().isPriced("gpt-4.1-mini")).isTrue();
    assertThat(priced.modelPricing().isPriced("gpt-5")).isFalse();
    assertThatThrownBy(
            () -> ApiServerSettings.fromEnvironment(Map.of("THREADLINE_MODEL_PRICES", "gpt=x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void webhookTargetsAreTheOperatorsPublicByDefault() {
    assertThat(ApiServerSettings.fromEnvironment(Map.of()).webhookTargets())
        .isEqualTo(AllowedTargets.PUBLIC);
    assertThat(
            ApiServerSettings.fromEnvironment(
                    Map.of("THREADLINE_WEBHOOK_ALLOWED_TARGETS", "private"))
                .webhookTargets())
        .isEqualTo(AllowedTargets.PRIVATE);
    assertThatThrownBy(() ->
            ApiServerSettings.fromEnvironment(
                Map.of("THREADLINE_WEBHOOK_ALLOWED_TARGETS", "everything")))
        .hasMessageContaining("THREADLINE_WEBHOOK_ALLOWED_TARGETS");
  }

  @Test
  void metricsCanMoveOrBeSwitchedOff() {
    assertThat(
            ApiServerSettings.fromEnvironment(Map.of("THREADLINE_API_MANAGEMENT_PORT", "9102"))
                .managementPort())
        .isEqualTo(9102);
    assertThat(
            ApiServerSettings.fromEnvironment(Map.of("THREADLINE_API_MANAGEMENT_PORT", "-1"))
                .managementPort())
        .isEqualTo(-1);
    assertThatThrownBy(
            () -> ApiServerSettings.fromEnvironment(Map.of("THREADLINE_API_MANAGEMENT_PORT", "-2")))
        .hasMessageContaining("THREADLINE_API_MANAGEMENT_PORT");
  }

  @Test
  void systemNamespaceFallsBackToThePodsNamespace() {
    assertThat(ApiServerSettings.fromEnvironment(Map.of("POD_NAMESPACE", "tl")).systemNamespace())
        .isEqualTo("tl");
    assertThat(
            ApiServerSettings.fromEnvironment(
                    Map.of("POD_NAMESPACE", "tl", "THREADLINE_SYSTEM_NAMESPACE", "keys"))
                .systemNamespace())
        .isEqualTo("keys");
  }

  @Test
  void readsAddressAndPort() {
    ApiServerSettings settings =
        ApiServerSettings.fromEnvironment(
            Map.of("THREADLINE_API_ADDRESS", "127.0.0.1", "THREADLINE_API_PORT", "0"));

    assertThat(settings.address()).isEqualTo("127.0.0.1");
    assertThat(settings.port()).isZero();
  }

  @Test
  void rejectsABadPortNamingTheVariable() {
    assertThatThrownBy(() ->
            ApiServerSettings.fromEnvironment(Map.of("THREADLINE_API_PORT", "tcp://10.0.0.1:80")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("THREADLINE_API_PORT");
    assertThatThrownBy(
            () -> ApiServerSettings.fromEnvironment(Map.of("THREADLINE_API_PORT", "70000")))
        .hasMessageContaining("THREADLINE_API_PORT");
  }

  @Test
  void loopbackIsLocalOnARandomPort() {
    ApiServerSettings settings = ApiServerSettings.loopback("sys");

    assertThat(settings.address()).isEqualTo("127.0.0.1");
    assertThat(settings.port()).isZero();
    assertThat(settings.systemNamespace()).isEqualTo("sys");
  }
}
