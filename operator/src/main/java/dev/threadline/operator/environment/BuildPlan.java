package dev.threadline.operator.environment;

import dev.threadline.core.environment.EffectiveDockerfile;

/**
 * What building an Environment's current configuration means: the Dockerfile, its hash and image
 * names, or why it cannot be built (a message for {@code buildError}).
 */
sealed interface BuildPlan {
  /** A buildable configuration. */
  record Buildable(
      EffectiveDockerfile dockerfile, String imageTag, String destination, String cacheRepository)
      implements BuildPlan {
    String hash() {
      return dockerfile.buildHash().value();
    }
  }

  /** A configuration that cannot be built; {@code error} goes to buildError as it is. */
  record Unbuildable(String error) implements BuildPlan {}
}
