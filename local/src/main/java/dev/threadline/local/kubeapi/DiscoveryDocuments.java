package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The documents kubectl and client libraries read before anything else: {@code /version} and the
 * legacy discovery ({@code /api}, {@code /api/v1}, {@code /apis}, {@code
 * /apis/{group}[/{version}]}). Only the legacy form is served; clients that ask for aggregated
 * discovery fall back to it because the answer's content type is plain {@code application/json}.
 */
final class DiscoveryDocuments {
  static final String GIT_VERSION = "v1.32.0";

  private DiscoveryDocuments() {}

  static ObjectNode version() {
    ObjectNode version = Json.object();
    version.put("major", "1");
    version.put("minor", "32");
    version.put("gitVersion", GIT_VERSION);
    version.put("gitCommit", "threadline-embedded");
    version.put("gitTreeState", "clean");
    version.put("buildDate", "2024-12-11T00:00:00Z");
    version.put("goVersion", "go1.23.3");
    version.put("compiler", "gc");
    version.put("platform", "linux/amd64");
    return version;
  }

  static ObjectNode coreVersions(String serverAddress) {
    ObjectNode versions = Json.object();
    versions.put("kind", "APIVersions");
    versions.putArray("versions").add("v1");
    ObjectNode address = versions.putArray("serverAddressByClientCIDRs").addObject();
    address.put("clientCIDR", "0.0.0.0/0");
    address.put("serverAddress", serverAddress);
    return versions;
  }

  static ObjectNode groupList(ResourceCatalog catalog) {
    ObjectNode list = Json.object();
    list.put("kind", "APIGroupList");
    list.put("apiVersion", "v1");
    ArrayNode groups = list.putArray("groups");
    catalog.groupVersions().forEach((group, versions) -> groups.add(group(group, versions)));
    return list;
  }

  static Optional<ObjectNode> group(ResourceCatalog catalog, String name) {
    List<String> versions = catalog.groupVersions().get(name);
    return versions == null ? Optional.empty() : Optional.of(group(name, versions));
  }

  /** The APIResourceList of one group version; empty when the API serves no such version. */
  static Optional<ObjectNode> resourceList(ResourceCatalog catalog, String group, String version) {
    List<ResourceType> types = catalog.resources(group, version);
    if (types.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode list = Json.object();
    list.put("kind", "APIResourceList");
    list.put("apiVersion", "v1");
    list.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
    ArrayNode resources = list.putArray("resources");
    for (ResourceType type : types) {
      ObjectNode resource = resources.addObject();
      resource.put("name", type.plural());
      resource.put("singularName", type.singular());
      resource.put("namespaced", type.namespaced());
      resource.put("kind", type.kind());
      ArrayNode verbs = resource.putArray("verbs");
      ResourceType.VERBS.forEach(verbs::add);
      if (!type.shortNames().isEmpty()) {
        ArrayNode shortNames = resource.putArray("shortNames");
        type.shortNames().forEach(shortNames::add);
      }
      if (!type.categories().isEmpty()) {
        ArrayNode categories = resource.putArray("categories");
        type.categories().forEach(categories::add);
      }
      if (type.statusSubresource()) {
        resources.add(subresource(type, "status", List.of("get", "patch", "update")));
      }
      if (type.group().isEmpty() && type.plural().equals("pods")) {
        resources.add(subresource(type, "log", List.of("get")));
      }
    }
    return Optional.of(list);
  }

  private static ObjectNode subresource(ResourceType type, String name, List<String> verbs) {
    ObjectNode resource = Json.object();
    resource.put("name", type.plural() + "/" + name);
    resource.put("singularName", "");
    resource.put("namespaced", type.namespaced());
    resource.put("kind", name.equals("log") ? "Pod" : type.kind());
    ArrayNode verbList = resource.putArray("verbs");
    verbs.forEach(verbList::add);
    return resource;
  }

  private static ObjectNode group(String name, List<String> versions) {
    ObjectNode group = Json.object();
    group.put("kind", "APIGroup");
    group.put("apiVersion", "v1");
    group.put("name", name);
    ArrayNode versionList = group.putArray("versions");
    for (String version : versions) {
      versionList.add(groupVersion(name, version));
    }
    group.set("preferredVersion", groupVersion(name, versions.get(0)));
    return group;
  }

  private static ObjectNode groupVersion(String group, String version) {
    ObjectNode node = Json.object();
    node.put("groupVersion", group + "/" + version);
    node.put("version", version);
    return node;
  }

  /** Groups and their versions in one line, for the start-up log. */
  static String describe(ResourceCatalog catalog) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, List<String>> entry : catalog.groupVersions().entrySet()) {
      if (!sb.isEmpty()) {
        sb.append(", ");
      }
      sb.append(entry.getKey()).append(entry.getValue());
    }
    return sb.toString();
  }
}
