package dev.threadline.runner.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The runner image's Java runtime has only the modules of {@value
 * RunnerImageLayout#JRE_MODULES_SOURCE} (and what they require). A dependency that starts using
 * another JDK module must fail here, not in an agent Pod with a NoClassDefFoundError.
 */
class JreModulesIT {

  @Test
  void theListedModulesBringInEveryJdkModuleTheRunnersJarsReferTo() throws Exception {
    Set<String> linked = linkedBy(RunnerImageLayout.jreModules());

    Map<String, String> referredTo = new JdkModuleReferences().of(RunnerImageLayout.jars());

    Map<String, String> missing = new TreeMap<>(referredTo);
    missing.keySet().removeAll(linked);
    if (!missing.isEmpty()) {
      fail(
          "The runner's jars use JDK modules that %s does not bring in:%n%s%nAdd each to that file,"
              + " with a comment saying who needs it: the runner image's Java runtime is linked"
              + " from that list.",
          RunnerImageLayout.JRE_MODULES_SOURCE,
          missing.entrySet().stream()
              .map(e -> "  " + e.getKey() + ", used by " + e.getValue())
              .collect(Collectors.joining("\n")));
    }
    // The scan must have found something, or it read nothing.
    assertThat(referredTo).containsKeys("java.base", "jdk.httpserver");
  }

  /**
   * What jlink puts in a runtime for {@code --add-modules roots}: the roots and all they require.
   */
  static Set<String> linkedBy(List<String> roots) {
    return Configuration.empty()
        .resolve(ModuleFinder.ofSystem(), ModuleFinder.of(), roots)
        .modules()
        .stream()
        .map(ResolvedModule::name)
        .collect(Collectors.toSet());
  }
}
