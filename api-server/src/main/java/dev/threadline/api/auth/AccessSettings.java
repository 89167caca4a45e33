package dev.threadline.api.auth;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Which deployment environment this API server is: property {@code threadline.deployment.env}, i.e.
 * the environment variable {@code THREADLINE_DEPLOYMENT_ENV} ({@code dev}, {@code test} or {@code
 * prod}). Unset, keys of every environment are accepted.
 */
@ConfigurationProperties("threadline.deployment")
public record AccessSettings(String env) {
  public AccessSettings {
    KeyEnvironment.configured(env); // fail at start-up on a typo, not on the first request
  }
}
