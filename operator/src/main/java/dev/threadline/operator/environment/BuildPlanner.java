package dev.threadline.operator.environment;

import dev.threadline.core.environment.BuildErrors;
import dev.threadline.core.environment.DockerfileRenderer;
import dev.threadline.core.environment.DockerfileValidator;
import dev.threadline.core.environment.EffectiveDockerfile;
import dev.threadline.core.environment.ImageTags;
import dev.threadline.core.environment.InvalidImageSpecException;
import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.config.OperatorSettings;
import java.util.List;
import java.util.Optional;

/**
 * Renders an Environment's effective Dockerfile with the operator's base and runner images, and
 * refuses what would not build: invalid extensions fail fast with the contract's {@code Dockerfile
 * syntax error} (the renderer copies extensions verbatim), an invalid spec (possible through
 * kubectl, whose schema cannot check package names) with the fields at fault, and an image the
 * build allow-list does not name ({@link BaseImagePolicy}). Images go to the tenant's own path
 * ({@link EnvironmentImages}).
 */
final class BuildPlanner {
  private final DockerfileRenderer renderer;
  private final BaseImagePolicy images;
  private final String registry;

  BuildPlanner(OperatorSettings settings) {
    this.renderer = new DockerfileRenderer(settings.baseImage(), settings.runnerImage());
    this.images =
        new BaseImagePolicy(
            settings.buildPods().allowedImages(),
            List.of(settings.baseImage(), settings.runnerImage()));
    this.registry = settings.registry();
  }

  BuildPlan plan(Environment environment) {
    var spec = environment.getSpec();
    if (spec == null) {
      return new BuildPlan.Unbuildable("Invalid environment: spec is required");
    }
    if (!DockerfileValidator.validate(spec.getDockerfileExtensions()).valid()) {
      return new BuildPlan.Unbuildable(BuildErrors.DOCKERFILE_SYNTAX_ERROR);
    }
    EffectiveDockerfile dockerfile;
    try {
      dockerfile = renderer.render(EnvironmentImageSpecs.of(spec));
    } catch (InvalidImageSpecException invalid) {
      return new BuildPlan.Unbuildable("Invalid environment: " + invalid.getMessage());
    }
    Optional<String> refusal = images.refusal(dockerfile.content());
    if (refusal.isPresent()) {
      return new BuildPlan.Unbuildable(refusal.get());
    }
    String tag = imageTag(environment, dockerfile);
    String namespace = environment.getMetadata().getNamespace();
    return new BuildPlan.Buildable(
        dockerfile,
        tag,
        EnvironmentImages.destination(registry, namespace, tag),
        EnvironmentImages.cacheRepository(registry, namespace));
  }

  /**
   * The contract's {@code env-<name>:<hash>}, named after the display name (made a repository name
   * by {@link ImageTags}); a name with no usable letter or digit falls back to the resource's name.
   * Equal hashes mean equal images, so a tenant's environments of the same name share a repository
   * safely.
   */
  static String imageTag(Environment environment, EffectiveDockerfile dockerfile) {
    try {
      return ImageTags.forEnvironment(
          environment.getSpec().getDisplayName(), dockerfile.buildHash());
    } catch (IllegalArgumentException unusableName) {
      return ImageTags.forEnvironment(environment.getMetadata().getName(), dockerfile.buildHash());
    }
  }
}
