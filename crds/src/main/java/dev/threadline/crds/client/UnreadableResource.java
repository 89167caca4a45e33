package dev.threadline.crds.client;

/**
 * A stored custom resource a client skipped because it does not fit its class: which object, and
 * which field did not fit (a path such as {@code spec.model}, never the value, which may be
 * secret).
 */
public record UnreadableResource(
    String apiVersion,
    String kind,
    String namespace,
    String name,
    String uid,
    String resourceVersion,
    String field) {

  /** {@code Agent default/agent-skewed}, for logs and messages. */
  public String describe() {
    return kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
  }
}
