package dev.threadline.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

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

  /**
   * A copy of the chart in {@code target} whose values.yaml also holds {@code
   * values-history-database.yaml}, for commands that take no values file (helm lint).
   */
  static Path chartWithDatabase(Path target) throws IOException {
    Path source = chart();
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path copy = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    YAMLMapper yaml = new YAMLMapper();
    Path values = target.resolve("values.yaml");
    ObjectNode merged = (ObjectNode) yaml.readTree(values.toFile());
    JsonNode database = yaml.readTree(RenderedChart.databaseValues().toFile());
    merge(merged, database);
    yaml.writeValue(values.toFile(), merged);
    return target;
  }

  /**
   * Helm's merge of a values file into the chart's values: objects key by key, the rest replaced.
   */
  private static void merge(ObjectNode into, JsonNode from) {
    from.properties()
        .forEach(field -> {
          JsonNode existing = into.get(field.getKey());
          if (existing instanceof ObjectNode object && field.getValue().isObject()) {
            merge(object, field.getValue());
          } else {
            into.set(field.getKey(), field.getValue());
          }
        });
  }

  static Path chartCrds() {
    return chart().resolve("crds");
  }

  /** Root {@code crds/}: the committed copies of the generated CRD manifests. */
  static Path generatedCrds() {
    return repositoryRoot().resolve("crds");
  }
}
