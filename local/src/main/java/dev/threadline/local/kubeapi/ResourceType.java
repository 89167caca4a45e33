package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What the API knows about one kind of resource: how discovery describes it and which columns
 * {@code kubectl get} prints for it. {@code schema} is a CRD version's openAPIV3Schema (null for
 * built-in kinds), used for defaulting; {@code rules} are its CEL validation rules.
 */
record ResourceType(
    String group,
    String version,
    String plural,
    String singular,
    String kind,
    boolean namespaced,
    List<String> shortNames,
    List<String> categories,
    boolean statusSubresource,
    List<PrinterColumn> columns,
    JsonNode schema,
    ValidationRules rules) {

  static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }
}
