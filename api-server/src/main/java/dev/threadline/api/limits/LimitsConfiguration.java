package dev.threadline.api.limits;

import dev.threadline.api.auth.AuthConfiguration;
import dev.threadline.api.edge.EdgeSettings;
import dev.threadline.api.errors.ErrorResponseWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The per-user object limits, and the body limit (size and time) behind authentication, the rate
 * limit and the concurrency cap, before any body is read.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ObjectLimitSettings.class)
class LimitsConfiguration {
  @Bean
  FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(
      ErrorResponseWriter errors, EdgeSettings edge) {
    FilterRegistrationBean<RequestBodyLimitFilter> registration =
        new FilterRegistrationBean<>(new RequestBodyLimitFilter(errors, edge.bodyTimeout()));
    // After the per-key concurrency cap (+2).
    registration.setOrder(AuthConfiguration.FILTER_ORDER + 3);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
