package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every resource type the API serves at one moment: the built-in ones and one per served version of
 * each stored CRD. Immutable; rebuilt whenever a CRD is written.
 */
final class ResourceCatalog {
  private final List<ResourceType> types;

  private ResourceCatalog(List<ResourceType> types) {
    this.types = List.copyOf(types);
  }

  static ResourceCatalog of(List<CustomResourceDefinition> crds) {
    List<ResourceType> types = new ArrayList<>(BuiltinResources.ALL);
    for (CustomResourceDefinition crd : crds) {
      types.addAll(typesOf(crd));
    }
    return new ResourceCatalog(types);
  }

  Optional<ResourceType> find(String group, String version, String plural) {
    return types.stream()
        .filter(t ->
            t.group().equals(group) && t.version().equals(version) && t.plural().equals(plural))
        .findFirst();
  }

  List<ResourceType> resources(String group, String version) {
    return types.stream()
        .filter(t -> t.group().equals(group) && t.version().equals(version))
        .toList();
  }

  /**
   * The type of objects of {@code kind} in {@code apiVersion} (as an object or an owner reference
   * names them): that version if served, else another served version of the kind's group.
   */
  Optional<ResourceType> ofKind(String apiVersion, String kind) {
    if (apiVersion == null || kind == null) {
      return Optional.empty();
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    List<ResourceType> ofKind =
        types.stream().filter(t -> t.group().equals(group) && t.kind().equals(kind)).toList();
    return ofKind.stream()
        .filter(t -> t.version().equals(version))
        .findFirst()
        .or(() -> ofKind.stream().findFirst());
  }

  /** Named API groups (not the core group) with their versions, preferred version first. */
  Map<String, List<String>> groupVersions() {
    Map<String, Set<String>> groups = new LinkedHashMap<>();
    for (ResourceType type : types) {
      if (!type.group().isEmpty()) {
        groups.computeIfAbsent(type.group(), g -> new LinkedHashSet<>()).add(type.version());
      }
    }
    Map<String, List<String>> result = new LinkedHashMap<>();
    groups.forEach((group, versions) -> result.put(group, List.copyOf(versions)));
    return result;
  }

  static List<ResourceType> typesOf(CustomResourceDefinition crd) {
    CustomResourceDefinitionNames names = crd.getSpec().getNames();
    boolean namespaced = !"Cluster".equals(crd.getSpec().getScope());
    List<ResourceType> result = new ArrayList<>();
    List<CustomResourceDefinitionVersion> versions = new ArrayList<>(crd.getSpec().getVersions());
    // The storage version first: it is the preferred version of the group.
    versions.sort((a, b) ->
        Boolean.compare(Boolean.TRUE.equals(b.getStorage()), Boolean.TRUE.equals(a.getStorage())));
    for (CustomResourceDefinitionVersion version : versions) {
      if (Boolean.FALSE.equals(version.getServed())) {
        continue;
      }
      JsonNode schema =
          version.getSchema() == null || version.getSchema().getOpenAPIV3Schema() == null
              ? null
              : Json.MAPPER.valueToTree(version.getSchema().getOpenAPIV3Schema());
      result.add(
          new ResourceType(
              crd.getSpec().getGroup(),
              version.getName(),
              names.getPlural(),
              Objects.requireNonNullElse(names.getSingular(), names.getKind().toLowerCase()),
              names.getKind(),
              namespaced,
              names.getShortNames() == null ? List.of() : List.copyOf(names.getShortNames()),
              names.getCategories() == null ? List.of() : List.copyOf(names.getCategories()),
              version.getSubresources() != null && version.getSubresources().getStatus() != null,
              columnsOf(version),
              schema,
              ValidationRules.compile(schema),
              selectableFieldsOf(version)));
    }
    return result;
  }

  private static Set<String> selectableFieldsOf(CustomResourceDefinitionVersion version) {
    if (version.getSelectableFields() == null) {
      return Set.of();
    }
    return version.getSelectableFields().stream()
        .map(field ->
            field.getJsonPath().startsWith(".")
                ? field.getJsonPath().substring(1)
                : field.getJsonPath())
        .collect(Collectors.toUnmodifiableSet());
  }

  private static List<PrinterColumn> columnsOf(CustomResourceDefinitionVersion version) {
    List<CustomResourceColumnDefinition> declared = version.getAdditionalPrinterColumns();
    if (declared == null || declared.isEmpty()) {
      return List.of(PrinterColumn.NAME, PrinterColumn.AGE);
    }
    List<PrinterColumn> columns = new ArrayList<>();
    columns.add(PrinterColumn.NAME);
    for (CustomResourceColumnDefinition column : declared) {
      columns.add(
          new PrinterColumn(
              column.getName(),
              column.getType(),
              Objects.requireNonNullElse(column.getFormat(), ""),
              Objects.requireNonNullElse(column.getDescription(), ""),
              column.getPriority() == null ? 0 : column.getPriority(),
              column.getJsonPath()));
    }
    return columns;
  }
}
