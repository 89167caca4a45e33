package dev.threadline.api.environments;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.environment.DockerfileRenderer;
import dev.threadline.core.environment.EffectiveDockerfile;
import dev.threadline.core.environment.ImageSpec;
import dev.threadline.core.environment.InvalidImageSpecException;
import dev.threadline.core.environment.SetupScript;
import dev.threadline.crds.environment.EnvironmentSpec;
import java.util.List;
import java.util.Optional;

/**
 * Renders an environment's effective Dockerfile as the operator will build it (the same renderer,
 * the same base and runner images), for {@code GET .../dockerfile}, validation and the up-to-date
 * check of {@code POST .../build}.
 */
final class DockerfilePreview {
  private final DockerfileRenderer renderer;

  DockerfilePreview(EnvironmentImageSettings settings) {
    this.renderer = new DockerfileRenderer(settings.baseImage(), settings.runnerImage());
  }

  /**
   * @throws ApiException 400 naming the field when the spec cannot be rendered (possible only for a
   *     resource written with kubectl: the REST API validates before it writes)
   */
  EffectiveDockerfile render(EnvironmentSpec spec) {
    try {
      return renderer.render(imageSpec(spec));
    } catch (InvalidImageSpecException invalid) {
      throw ApiException.badRequest("The environment cannot be rendered: " + invalid.getMessage());
    }
  }

  /** The rendering, or empty when the spec cannot be rendered. */
  Optional<EffectiveDockerfile> tryRender(EnvironmentSpec spec) {
    try {
      return Optional.of(renderer.render(imageSpec(spec)));
    } catch (InvalidImageSpecException invalid) {
      return Optional.empty();
    }
  }

  static ImageSpec imageSpec(EnvironmentSpec spec) {
    List<SetupScript> scripts =
        Optional.ofNullable(spec.getSetupScripts()).orElse(List.of()).stream()
            .map(script ->
                script == null ? null : new SetupScript(script.getName(), script.getScript()))
            .toList();
    String baseImage =
        spec.getBaseImage() == null || spec.getBaseImage().isBlank() ? null : spec.getBaseImage();
    return new ImageSpec(
        baseImage,
        spec.getRuntimes(),
        EnvironmentInputs.fromSpec(spec.getPackages()),
        spec.getDockerfileExtensions(),
        scripts);
  }
}
