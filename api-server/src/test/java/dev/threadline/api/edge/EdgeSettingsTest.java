package dev.threadline.api.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.unit.DataSize;

class EdgeSettingsTest {
  @Test
  void defaultsAreThoseOfAPublicApi() {
    EdgeSettings settings = EdgeSettings.defaults();
    assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(settings.bodyTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.keepAliveTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(settings.maxKeepAliveRequests()).isEqualTo(1000);
    assertThat(settings.maxHeaderSize()).isEqualTo(DataSize.ofKilobytes(16));
    assertThat(settings.maxRequestsPerKey()).isEqualTo(32);
    assertThat(settings.maxStreamsPerKey()).isEqualTo(16);
    assertThat(settings.maxRequestsPerAddress()).isEqualTo(64);
    assertThat(settings.maxStreamsPerAddress()).isEqualTo(64);
    assertThat(settings.trustedProxies()).isEmpty();
  }

  @Test
  void environmentVariablesBindWithoutDashes() {
    StandardEnvironment environment = new StandardEnvironment();
    // Named as Spring names the process environment, so its variable-name mapping applies.
    environment
        .getPropertySources()
        .replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of(
                    "THREADLINE_API_BODYTIMEOUT", "5s",
                    "THREADLINE_API_MAXREQUESTSPERKEY", "0",
                    "THREADLINE_API_MAXHEADERSIZE", "32KB",
                    "THREADLINE_API_KEYS", "not=ours")));
    ConfigurationPropertySources.attach(environment);
    EdgeSettings settings =
        Binder.get(environment).bind("threadline.api", EdgeSettings.class).get();
    assertThat(settings.bodyTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.maxRequestsPerKey()).as("0: no cap").isZero();
    assertThat(settings.maxHeaderSize()).isEqualTo(DataSize.ofKilobytes(32));
    assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void nonsenseFailsAtStartNamingTheSetting() {
    assertThatThrownBy(() ->
            new EdgeSettings(Duration.ZERO, null, null, null, null, null, null, null, null, null))
        .hasMessageContaining("threadline.api.read-timeout");
    assertThatThrownBy(
            () -> new EdgeSettings(null, null, null, null, null, -1, null, null, null, null))
        .hasMessageContaining("threadline.api.max-requests-per-key");
    assertThatThrownBy(() ->
            new EdgeSettings(
                null, null, null, null, DataSize.ofBytes(10), null, null, null, null, null))
        .hasMessageContaining("threadline.api.max-header-size");
    assertThatThrownBy(
            () -> new EdgeSettings(null, null, null, null, null, null, null, null, null, "10.("))
        .hasMessageContaining("threadline.api.trusted-proxies");
  }
}
