package dev.threadline.api.edge;

import dev.threadline.api.auth.AuthConfiguration;
import dev.threadline.api.auth.AuthenticatedKey;
import dev.threadline.api.auth.AuthenticationFilter;
import dev.threadline.api.errors.ErrorResponseWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The HTTP edge's bounds: Tomcat's timeouts and sizes, and the concurrency caps per client address
 * (before authentication, so requests without a key count too) and per API key (after the rate
 * limit, before the body limit).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EdgeSettings.class)
class EdgeConfiguration {
  static final int ADDRESS_FILTER_ORDER = AuthConfiguration.FILTER_ORDER - 1;
  static final int KEY_FILTER_ORDER = AuthConfiguration.FILTER_ORDER + 2;

  @Bean
  TomcatEdge tomcatEdge(EdgeSettings settings) {
    return new TomcatEdge(settings);
  }

  @Bean
  FilterRegistrationBean<ConcurrencyFilter> addressConcurrencyFilter(
      EdgeSettings settings, ErrorResponseWriter errors) {
    ConcurrencyFilter filter =
        new ConcurrencyFilter(
            "client address",
            request -> AuthenticationFilter.isPublic(request) ? null : request.getRemoteAddr(),
            new InFlight(settings.maxRequestsPerAddress()),
            new InFlight(settings.maxStreamsPerAddress()),
            errors);
    return registration(filter, ADDRESS_FILTER_ORDER);
  }

  @Bean
  FilterRegistrationBean<ConcurrencyFilter> keyConcurrencyFilter(
      EdgeSettings settings, ErrorResponseWriter errors) {
    ConcurrencyFilter filter =
        new ConcurrencyFilter(
            "API key",
            request ->
                request.getAttribute(AuthenticatedKey.REQUEST_ATTRIBUTE)
                        instanceof AuthenticatedKey key
                    ? key.keyId()
                    : null,
            new InFlight(settings.maxRequestsPerKey()),
            new InFlight(settings.maxStreamsPerKey()),
            errors);
    return registration(filter, KEY_FILTER_ORDER);
  }

  private static FilterRegistrationBean<ConcurrencyFilter> registration(
      ConcurrencyFilter filter, int order) {
    FilterRegistrationBean<ConcurrencyFilter> registration = new FilterRegistrationBean<>(filter);
    registration.setOrder(order);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
