package dev.threadline.operator.environment;

import dev.threadline.core.environment.ImageSpec;
import dev.threadline.core.environment.Packages;
import dev.threadline.core.environment.SetupScript;
import dev.threadline.crds.environment.EnvironmentPackages;
import dev.threadline.crds.environment.EnvironmentSetupScript;
import dev.threadline.crds.environment.EnvironmentSpec;
import java.util.List;
import java.util.Optional;

/** The part of an Environment's spec that shapes its image, in core's terms. */
final class EnvironmentImageSpecs {
  private EnvironmentImageSpecs() {}

  static ImageSpec of(EnvironmentSpec spec) {
    EnvironmentPackages packages =
        Optional.ofNullable(spec.getPackages()).orElseGet(EnvironmentPackages::new);
    List<SetupScript> scripts =
        Optional.ofNullable(spec.getSetupScripts()).orElse(List.of()).stream()
            .map(EnvironmentImageSpecs::script)
            .toList();
    return new ImageSpec(
        blankToNull(spec.getBaseImage()),
        spec.getRuntimes(),
        new Packages(packages.getSystem(), packages.getPython(), packages.getNode()),
        spec.getDockerfileExtensions(),
        scripts);
  }

  private static SetupScript script(EnvironmentSetupScript script) {
    return script == null ? null : new SetupScript(script.getName(), script.getScript());
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text;
  }
}
