package dev.threadline.api.usage;

import dev.threadline.api.kubernetes.ManagedInformer;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires usage: the accounts reader, the 402 check before executions, and {@code GET /v1/usage}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UsageSettings.class)
class UsageConfiguration {
  @Bean
  UsageAccounts usageAccounts(
      KubernetesClient client,
      ManagedInformer<Namespace> tenantNamespaceInformer,
      UsageSettings settings,
      Clock clock) {
    return new UsageAccounts(client, tenantNamespaceInformer, settings.plans(), clock);
  }

  @Bean
  ExecutionAllowance executionAllowance(UsageAccounts usageAccounts) {
    return new MonthlyAllowance(usageAccounts);
  }
}
