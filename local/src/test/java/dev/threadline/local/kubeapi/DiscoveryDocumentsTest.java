package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiscoveryDocumentsTest {
  private static final CustomResourceDefinition WIDGETS =
      new CustomResourceDefinitionBuilder()
          .withNewMetadata()
          .withName("widgets.example.dev")
          .endMetadata()
          .withNewSpec()
          .withGroup("example.dev")
          .withScope("Cluster")
          .withNewNames()
          .withKind("Widget")
          .withPlural("widgets")
          .withSingular("widget")
          .withShortNames("wd")
          .withCategories("threadline")
          .endNames()
          .addNewVersion()
          .withName("v1beta1")
          .withServed(true)
          .withStorage(false)
          .endVersion()
          .addNewVersion()
          .withName("v1")
          .withServed(true)
          .withStorage(true)
          .withNewSubresources()
          .withNewStatus()
          .endStatus()
          .endSubresources()
          .endVersion()
          .addNewVersion()
          .withName("v0")
          .withServed(false)
          .withStorage(false)
          .endVersion()
          .endSpec()
          .build();
  private static final ResourceCatalog CATALOG = ResourceCatalog.of(List.of(WIDGETS));

  @Test
  void aCrdGroupPrefersItsStorageVersionAndHidesUnservedOnes() {
    JsonNode group = DiscoveryDocuments.group(CATALOG, "example.dev").orElseThrow();

    assertThat(group.at("/preferredVersion/groupVersion").asText()).isEqualTo("example.dev/v1");
    assertThat(group.path("versions").findValuesAsText("version")).containsExactly("v1", "v1beta1");
    assertThat(DiscoveryDocuments.resourceList(CATALOG, "example.dev", "v0")).isEmpty();
  }

  @Test
  void aCrdResourceCarriesNamesCategoriesAndItsStatusSubresource() {
    JsonNode resources =
        DiscoveryDocuments.resourceList(CATALOG, "example.dev", "v1")
            .orElseThrow()
            .path("resources");

    assertThat(resources.findValuesAsText("name")).containsExactly("widgets", "widgets/status");
    JsonNode widgets = resources.get(0);
    assertThat(widgets.path("namespaced").asBoolean()).isFalse();
    assertThat(widgets.path("shortNames").toString()).isEqualTo("[\"wd\"]");
    assertThat(widgets.path("categories").toString()).isEqualTo("[\"threadline\"]");
    assertThat(resources.get(1).path("verbs").toString())
        .isEqualTo("[\"get\",\"patch\",\"update\"]");
  }

  @Test
  void theGroupListHasBuiltinGroupsThenCrdGroups() {
    JsonNode groups = DiscoveryDocuments.groupList(CATALOG).path("groups");

    assertThat(groups.findValuesAsText("name"))
        .containsSubsequence("apps", "batch", "apiextensions.k8s.io", "example.dev");
  }
}
