package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks everything in an {@link ImageSpec} that would make the rendered Dockerfile unsafe or
 * unbuildable: the base image, runtimes, package names and setup scripts. Field paths follow the
 * environment's JSON ({@code baseImage}, {@code runtimes.python}, {@code packages.node[1]}, {@code
 * setupScripts[0].script}).
 *
 * <p>The Dockerfile extensions are not checked here: they are the user's own instructions, placed
 * verbatim, and {@link DockerfileValidator} reports on them with warnings rather than field errors.
 */
public final class ImageSpecValidator {

  private ImageSpecValidator() {}

  /** Every problem found, or an empty list when the spec can be rendered. */
  public static List<FieldError> validate(ImageSpec spec) {
    var errors = new ArrayList<FieldError>();
    if (spec.baseImage() != null) {
      ImageReferences.checkBaseImage(spec.baseImage())
          .ifPresent(problem -> errors.add(new FieldError("baseImage", "baseImage " + problem)));
    }
    errors.addAll(RuntimeCatalog.validate(spec.runtimes()));
    errors.addAll(PackageNames.validate(spec.packages()));
    errors.addAll(validateSetupScripts(spec.setupScripts()));
    return errors;
  }

  private static List<FieldError> validateSetupScripts(List<SetupScript> scripts) {
    var errors = new ArrayList<FieldError>();
    for (int i = 0; i < scripts.size(); i++) {
      var script = scripts.get(i);
      var field = "setupScripts[" + i + "]";
      if (script == null) {
        errors.add(new FieldError(field, "Setup script must be an object, not null"));
      } else if (script.script() == null) {
        errors.add(new FieldError(field + ".script", "Setup script text is required"));
      }
    }
    return errors;
  }
}
