package dev.threadline.api.ratelimit;

import dev.threadline.api.auth.AuthConfiguration;
import dev.threadline.api.metrics.ApiMetrics;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Puts the rate limit right behind authentication. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitSettings.class)
class RateLimitConfiguration {
  @Bean
  FilterRegistrationBean<RateLimitFilter> rateLimitFilter(
      RateLimitSettings settings, JsonMapper json, ApiMetrics metrics) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter(settings, json, metrics));
    registration.setOrder(AuthConfiguration.FILTER_ORDER + 1);
    registration.addUrlPatterns("/*");
    return registration;
  }
}
