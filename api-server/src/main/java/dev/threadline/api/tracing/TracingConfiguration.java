package dev.threadline.api.tracing;

import dev.threadline.telemetry.Telemetry;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Traces, when the server was started with them ({@link Telemetry#enabled()}): every request is a
 * server span, first of all filters so that refusals (401, 429, 413) are traced too. Off, no filter
 * runs at all.
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {
  @Bean
  FilterRegistrationBean<ServerSpanFilter> serverSpanFilter(Telemetry telemetry) {
    FilterRegistrationBean<ServerSpanFilter> registration =
        new FilterRegistrationBean<>(new ServerSpanFilter(telemetry.tracer()));
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.addUrlPatterns("/*");
    registration.setEnabled(telemetry.enabled());
    return registration;
  }
}
