package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.threadline.local.kubeapi.store.ObjectKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bootstrap ClusterRoles and bindings every cluster starts with ({@code
 * bootstrap-policy.yaml}).
 */
public final class BootstrapPolicy {
  private static final String RESOURCE = "bootstrap-policy.yaml";

  private BootstrapPolicy() {}

  /** Each object under the key it is stored at. */
  public static Map<ObjectKey, ObjectNode> objects() {
    return read(BootstrapPolicy.class.getResourceAsStream(RESOURCE), RESOURCE);
  }

  /** The RBAC (and other) objects of a multi-document YAML stream, by store key. */
  public static Map<ObjectKey, ObjectNode> read(InputStream in, String what) {
    if (in == null) {
      throw new IllegalStateException("missing resource " + what);
    }
    Map<ObjectKey, ObjectNode> objects = new LinkedHashMap<>();
    try (in;
        MappingIterator<JsonNode> documents =
            new YAMLMapper().readerFor(JsonNode.class).readValues(in)) {
      while (documents.hasNext()) {
        if (documents.next() instanceof ObjectNode object && object.has("kind")) {
          objects.put(keyOf(object), object);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what, e);
    }
    return objects;
  }

  private static ObjectKey keyOf(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText();
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    String plural = object.path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "s";
    JsonNode metadata = object.path("metadata");
    return new ObjectKey(
        group.isEmpty() ? plural : plural + "." + group,
        metadata.path("namespace").asText(""),
        metadata.path("name").asText());
  }
}
