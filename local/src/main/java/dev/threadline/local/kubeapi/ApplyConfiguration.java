package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * The body of a server-side apply ({@code application/apply-patch+yaml}, of which JSON is a
 * subset): one object naming its apiVersion and kind, checked against the request's path as
 * kube-apiserver checks it. The body is already bounded in size ({@link BoundedBody}); YAML aliases
 * are bounded by the parser's own limits.
 */
final class ApplyConfiguration {
  private static final YAMLMapper YAML = new YAMLMapper();

  private ApplyConfiguration() {}

  /**
   * Reads the body.
   *
   * @throws IllegalArgumentException with kube's wording when it is not one YAML object
   */
  static ObjectNode parse(byte[] body) {
    JsonNode node;
    try {
      node = YAML.readTree(body == null ? new byte[0] : body);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("error decoding YAML: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("error decoding YAML: " + e.getMessage(), e);
    }
    if (!(node instanceof ObjectNode object)) {
      throw new IllegalArgumentException("the body of an apply must be one YAML or JSON object");
    }
    return object;
  }

  /** Why {@code config} cannot be applied at {@code path}, in kube's words; null when it can. */
  static String mismatch(ObjectNode config, ResourceType type, ApiPath path) {
    String apiVersion = Json.text(config, "apiVersion");
    String kind = Json.text(config, "kind");
    if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
      return "apiVersion and kind must be set in an apply configuration";
    }
    if (!apiVersion.equals(type.groupVersion()) || !kind.equals(type.kind())) {
      return "the apiVersion and kind in the body ("
          + apiVersion
          + ", "
          + kind
          + ") do not match the resource "
          + path.qualifiedResource()
          + " ("
          + type.groupVersion()
          + ", "
          + type.kind()
          + ")";
    }
    String name = Json.text(config, "metadata", "name");
    if (name != null && !name.isEmpty() && !name.equals(path.name())) {
      return "the name of the object ("
          + name
          + ") does not match the name on the URL ("
          + path.name()
          + ")";
    }
    String namespace = Json.text(config, "metadata", "namespace");
    if (type.namespaced()
        && namespace != null
        && !namespace.isEmpty()
        && !namespace.equals(path.namespace())) {
      return "the namespace of the provided object does not match the namespace sent on the"
          + " request";
    }
    return null;
  }

  /**
   * Leaves in {@code config} only what its path may change: with a status subresource, the main
   * resource cannot change the status and {@code /status} nothing else (kube's reset fields).
   */
  static void keepWhatThePathChanges(ObjectNode config, ResourceType type, ApiPath path) {
    ObjectNode metadata = Json.metadata(config);
    metadata.remove("managedFields");
    if (!type.statusSubresource()) {
      return;
    }
    if (path.isStatus()) {
      config.retain("apiVersion", "kind", "metadata", "status");
      metadata.retain("name", "namespace", "resourceVersion");
    } else {
      config.remove("status");
    }
  }
}
