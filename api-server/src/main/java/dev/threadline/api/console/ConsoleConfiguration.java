package dev.threadline.api.console;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the web console: plain files from {@code classpath:/static/console/} at {@code /console/},
 * the page itself at {@code /console} and {@code /console/}, with security headers on all of them.
 * The console talks to the API with the user's key like any other client.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleConfiguration implements WebMvcConfigurer {
  private static final String LOCATION = "classpath:/static/console/";

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    // no-cache: revalidated on every load, so a new version of the server is seen at once.
    registry
        .addResourceHandler(ConsoleAssets.PATH + "/**")
        .addResourceLocations(LOCATION)
        .setCacheControl(CacheControl.noCache());
  }

  @Override
  public void addViewControllers(ViewControllerRegistry registry) {
    registry.addRedirectViewController(ConsoleAssets.PATH, ConsoleAssets.PATH + "/");
    registry
        .addViewController(ConsoleAssets.PATH + "/")
        .setViewName("forward:" + ConsoleAssets.PATH + "/index.html");
  }

  @Bean
  FilterRegistrationBean<ConsoleHeadersFilter> consoleHeadersFilter() {
    FilterRegistrationBean<ConsoleHeadersFilter> registration =
        new FilterRegistrationBean<>(new ConsoleHeadersFilter());
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 50);
    registration.addUrlPatterns(ConsoleAssets.PATH, ConsoleAssets.PATH + "/*");
    return registration;
  }
}
