package dev.threadline.runner.image;

import dev.threadline.core.image.ImageInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The runner's image layout in target/image, as {@code package} leaves it for the Dockerfile. */
final class RunnerImageLayout {
  static final Path ROOT = ImageInputs.module().resolve(ImageInputs.LAYOUT);
  static final Path LIB = ROOT.resolve("lib");
  static final Path SCRIPT = ROOT.resolve("bin/runner");

  /** The committed src/main/image/jre-modules, as copied into the layout. */
  static final Path JRE_MODULES = ROOT.resolve("jre-modules");

  static final String JRE_MODULES_SOURCE = "runner/src/main/image/jre-modules";

  private static final Pattern MODULE_NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*");

  private RunnerImageLayout() {}

  static List<Path> jars() throws IOException {
    try (Stream<Path> files = Files.list(LIB)) {
      return files.filter(file -> file.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /**
   * The module list. Strict, because the Dockerfile reads it with {@code grep -v -e '^#' -e '^$'}:
   * every other line must be a module name alone.
   */
  static List<String> jreModules() throws IOException {
    List<String> modules = new ArrayList<>();
    List<String> lines = Files.readAllLines(JRE_MODULES);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!MODULE_NAME.matcher(line).matches()) {
        throw new IllegalStateException(
            JRE_MODULES_SOURCE
                + " line "
                + (i + 1)
                + ": expected a module name alone, a comment starting with # or an empty line: '"
                + line
                + "'");
      }
      modules.add(line);
    }
    return modules;
  }
}
