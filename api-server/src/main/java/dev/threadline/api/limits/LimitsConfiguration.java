package dev.threadline.api.limits;

import dev.threadline.api.auth.AuthConfiguration;
import dev.threadline.api.errors.ErrorResponseWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The per-user object limits, and the body limit behind authentication and the rate limit, before
 * any body is read.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ObjectLimitSettings.class)
class LimitsConfiguration {
  @Bean
  FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(
      ErrorResponseWriter errors) {
    FilterRegistrationBean<RequestBodyLimitFilter> registration =
        new FilterRegistrationBean<>(new RequestBodyLimitFilter(errors));
    registration.setOrder(AuthConfiguration.FILTER_ORDER + 2);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
