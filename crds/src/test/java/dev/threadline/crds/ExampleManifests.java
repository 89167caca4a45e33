package dev.threadline.crds;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the manifests in examples/ as the project's resource classes. */
public final class ExampleManifests {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private ExampleManifests() {}

  /** The first object of {@code kind} in {@code examples/<file>}, as {@code type}. */
  public static <T> T first(String file, String kind, Class<T> type) throws IOException {
    Path manifest = Path.of("..", "examples", file);
    try (InputStream in = Files.newInputStream(manifest)) {
      Object parsed = SERIALIZATION.unmarshal(in);
      List<?> objects = parsed instanceof List<?> list ? list : List.of(parsed);
      // Read as generic resources (the model is not registered with the serializer), then
      // converted.
      return objects.stream()
          .map(HasMetadata.class::cast)
          .filter(o -> kind.equals(o.getKind()))
          .map(o -> SERIALIZATION.convertValue(o, type))
          .findFirst()
          .orElseThrow(() ->
              new AssertionError(
                  "no "
                      + kind
                      + " in "
                      + manifest
                      + ": "
                      + objects.stream().map(o -> ((HasMetadata) o).getKind()).toList()));
    }
  }

  /** JSON of any object, to check what a spec would hold. */
  public static String json(Object value) {
    return SERIALIZATION.asJson(value);
  }
}
