package dev.threadline.api.idempotency;

import dev.threadline.api.limits.ObjectLimitSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Idempotency keys: records in Kubernetes, the service the controllers call, and the sweep. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdempotencySettings.class)
class IdempotencyConfiguration {
  @Bean
  IdempotencyStore idempotencyStore(
      KubernetesClient client,
      IdempotencySettings settings,
      ObjectLimitSettings limits,
      Clock clock) {
    return new IdempotencyStore(client, settings, limits.idempotencyRecordLimit(), clock);
  }

  @Bean
  IdempotentRequests idempotentRequests(IdempotencyStore store, JsonMapper json) {
    return new IdempotentRequests(store, json);
  }

  @Bean
  IdempotencySweeper idempotencySweeper(IdempotencyStore store, IdempotencySettings settings) {
    return new IdempotencySweeper(store, settings);
  }
}
