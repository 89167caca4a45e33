package dev.threadline.crds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CRD manifests committed under {@code crds/} must equal the ones the build generates from the
 * classes, with their printer columns in declared order (see {@link PrinterColumnOrder}). Run with
 * {@code -Dthreadline.crds.update=true} to rewrite the committed copies.
 */
class CrdManifestsInSyncTest {
  private static final Path GENERATED = Path.of("target/classes/META-INF/fabric8");
  private static final Path COMMITTED = Path.of(".");
  private static final String GENERATED_SUFFIX = "-v1.yml";
  private static final String COMMITTED_SUFFIX = ".yaml";

  @Test
  void committedManifestsEqualGeneratedOnes() throws IOException {
    Map<String, String> generated = withDeclaredColumnOrder(generatedManifests());

    if (Boolean.getBoolean("threadline.crds.update")) {
      try (Stream<Path> stale = Files.list(COMMITTED)) {
        for (Path file : stale.filter(CrdManifestsInSyncTest::isThreadlineManifest).toList()) {
          Files.delete(file);
        }
      }
      for (Map.Entry<String, String> manifest : generated.entrySet()) {
        Files.writeString(
            COMMITTED.resolve(manifest.getKey() + COMMITTED_SUFFIX), manifest.getValue());
      }
    }

    assertThat(read(COMMITTED, COMMITTED_SUFFIX))
        .as(
            "crds/*.yaml differ from the generated CRDs; run `./mvnw -pl crds test"
                + " -Dthreadline.crds.update=true`, then copy them into the chart: `cp"
                + " crds/*.threadline.dev.yaml helm/threadline/crds/`")
        .isEqualTo(generated);
  }

  @Test
  void reorderingColumnsOnlyMovesLines() throws IOException {
    // The reordered manifests are re-serialized: they must keep the generator's formatting.
    Map<String, String> generated = generatedManifests();
    Map<String, String> reordered = withDeclaredColumnOrder(generated);
    generated.forEach((crdName, manifest) ->
        assertThat(sortedLines(reordered.get(crdName)))
            .as(crdName)
            .isEqualTo(sortedLines(manifest)));
  }

  private static Map<String, String> generatedManifests() throws IOException {
    Map<String, String> generated = read(GENERATED, GENERATED_SUFFIX);
    assertThat(generated).as("the crd-generator produced no manifests").isNotEmpty();
    return generated;
  }

  private static Map<String, String> withDeclaredColumnOrder(Map<String, String> manifests) {
    Map<String, String> reordered = new TreeMap<>();
    manifests.forEach((crdName, manifest) ->
        reordered.put(
            crdName,
            PrinterColumnOrder.asDeclared(manifest, CustomResourceClasses.forCrd(crdName))));
    return reordered;
  }

  private static List<String> sortedLines(String text) {
    return text.lines().sorted().toList();
  }

  private static Map<String, String> read(Path dir, String suffix) throws IOException {
    Map<String, String> manifests = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(suffix)).toList()) {
        String name = file.getFileName().toString();
        manifests.put(name.substring(0, name.length() - suffix.length()), Files.readString(file));
      }
    }
    return manifests;
  }

  private static boolean isThreadlineManifest(Path file) {
    return file.getFileName().toString().endsWith(".threadline.dev" + COMMITTED_SUFFIX);
  }
}
