package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Selection;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current {@link ResourceCatalog}, kept in memory so that the event loop can tell a resource
 * path from a wrong one without touching the store. Rebuilt from the stored CRDs after every CRD
 * write (all writes pass through the embedded API, so nothing is missed).
 */
final class ResourceTypes {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceTypes.class);
  static final String CRD_RESOURCE = "customresourcedefinitions.apiextensions.k8s.io";

  private final ObjectStore store;
  private volatile ResourceCatalog catalog = ResourceCatalog.of(List.of());

  ResourceTypes(ObjectStore store) {
    this.store = store;
  }

  ResourceCatalog catalog() {
    return catalog;
  }

  Optional<ResourceType> find(ApiPath path) {
    return catalog.find(path.group(), path.version(), path.resource());
  }

  void refresh() {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (JsonNode item : store.list(Selection.all(CRD_RESOURCE), 0, null).items()) {
      crds.add(Json.MAPPER.convertValue(item, CustomResourceDefinition.class));
    }
    catalog = ResourceCatalog.of(crds);
    LOG.debug("API groups now: {}", DiscoveryDocuments.describe(catalog));
  }
}
