package dev.threadline.api.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The product meters, on the registry Spring Boot's actuator exports at {@code /metrics}. */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {
  @Bean
  ApiMetrics apiMetrics(MeterRegistry registry) {
    return new ApiMetrics(registry, Clock.systemUTC());
  }
}
