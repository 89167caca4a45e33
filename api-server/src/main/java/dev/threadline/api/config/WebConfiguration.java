package dev.threadline.api.config;

import dev.threadline.api.auth.TenantArgumentResolver;
import dev.threadline.api.paging.PageRequestArgumentResolver;
import java.time.Clock;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Controller arguments ({@code Tenant}, {@code PageRequest}) and the clock. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {
  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new TenantArgumentResolver());
    resolvers.add(new PageRequestArgumentResolver());
  }

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }
}
