package dev.threadline.helm;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the chart and the repository's generated CRDs are, seen from the helm module. */
final class ChartPaths {

  private ChartPaths() {}

  /** The helm module directory (surefire sets {@code basedir}; otherwise the working directory). */
  static Path module() {
    return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
  }

  static Path repositoryRoot() {
    Path root = module().getParent();
    if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("crds"))) {
      throw new IllegalStateException("Not a Threadline checkout: " + root);
    }
    return root;
  }

  static Path chart() {
    return module().resolve("threadline");
  }

  static Path chartCrds() {
    return chart().resolve("crds");
  }

  /** Root {@code crds/}: the committed copies of the generated CRD manifests. */
  static Path generatedCrds() {
    return repositoryRoot().resolve("crds");
  }
}
