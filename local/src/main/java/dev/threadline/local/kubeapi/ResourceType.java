package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.kubeapi.store.FieldSelector;
import java.util.List;
import java.util.Set;

/**
 * What the API knows about one kind of resource: how discovery describes it and which columns
 * {@code kubectl get} prints for it. {@code schema} is a CRD version's openAPIV3Schema (null for
 * built-in kinds), used for defaulting; {@code rules} are its CEL validation rules; {@code
 * selectableFields} the fields a field selector may name besides the name and namespace (a CRD
 * version's {@code selectableFields}, without the leading dot), null for built-in kinds, which the
 * embedded API lets select by any field.
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
    ValidationRules rules,
    Set<String> selectableFields) {

  static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  /**
   * The first field of {@code fields} this resource cannot be selected by, or null when all can: a
   * custom resource only by its name, namespace and declared selectable fields, as on a cluster.
   */
  String unselectableField(FieldSelector fields) {
    if (selectableFields == null) {
      return null;
    }
    return fields.paths().stream()
        .filter(path ->
            !FieldSelector.ALWAYS_SELECTABLE.contains(path) && !selectableFields.contains(path))
        .findFirst()
        .orElse(null);
  }

  String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }
}
