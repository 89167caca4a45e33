package dev.threadline.api.auth;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.errors.ErrorResponseWriter;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Wires authentication: informers over API key Secrets (system namespace only) and tenant
 * namespaces, and the filter in front of every endpoint.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccessSettings.class)
public class AuthConfiguration {
  /** Early, but after Spring Boot's character-encoding filter. */
  public static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

  @Bean
  ManagedInformer<Secret> apiKeySecretInformer(
      KubernetesClient client, ApiServerSettings settings) {
    return new ManagedInformer<>(
        "api-keys",
        client
            .secrets()
            .inNamespace(settings.systemNamespace())
            .withLabel(Labels.API_KEY, "true")
            .runnableInformer(0),
        Map.of(ApiKeyDirectory.BY_HASH, ApiKeyDirectory.hashIndex()));
  }

  @Bean
  ManagedInformer<Namespace> tenantNamespaceInformer(KubernetesClient client) {
    return new ManagedInformer<>(
        "tenant-namespaces",
        client.namespaces().withLabel(Labels.TENANT, "true").runnableInformer(0),
        Map.of(TenantDirectory.BY_USER, TenantDirectory.userIndex()));
  }

  @Bean
  Authenticator authenticator(
      ManagedInformer<Secret> apiKeySecretInformer,
      ManagedInformer<Namespace> tenantNamespaceInformer,
      Clock clock,
      AccessSettings access) {
    return new Authenticator(
        new ApiKeyDirectory(apiKeySecretInformer),
        new TenantDirectory(tenantNamespaceInformer),
        clock,
        access.env());
  }

  @Bean
  FilterRegistrationBean<AuthenticationFilter> authenticationFilter(
      Authenticator authenticator, ErrorResponseWriter errors) {
    FilterRegistrationBean<AuthenticationFilter> registration =
        new FilterRegistrationBean<>(new AuthenticationFilter(authenticator, errors));
    registration.setOrder(FILTER_ORDER);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
