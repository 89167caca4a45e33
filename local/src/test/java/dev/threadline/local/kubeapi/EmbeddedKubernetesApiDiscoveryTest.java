package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Version, discovery and OpenAPI answers, and no path that leaks the store. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiDiscoveryTest {
  private static final String SECRET_VALUE = "c3VwZXItc2VjcmV0LXZhbHVl";

  private EmbeddedKubernetesApi api;
  private RawHttp http;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    http = new RawHttp(api);
    try (KubernetesClient client = api.newClient()) {
      client
          .secrets()
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("api-key")
                  .endMetadata()
                  .addToData("key", SECRET_VALUE)
                  .build())
          .create();
    }
  }

  @AfterAll
  void stop() {
    api.close();
  }

  @Test
  void versionIsWhatKubectlExpects() {
    HttpResponse<String> response = http.get("/version?timeout=5s");

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode version = Json.parse(response.body());
    assertThat(version.path("gitVersion").asText()).isEqualTo("v1.32.0");
    assertThat(version.path("major").asText()).isEqualTo("1");
    assertThat(version.path("minor").asText()).isEqualTo("32");
    assertThat(version.path("platform").asText()).isNotEmpty();
    try (KubernetesClient client = api.newClient()) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.32.0");
    }
  }

  @Test
  void coreDiscoveryListsTheCoreResourcesAndSubresources() {
    assertThat(Json.parse(http.get("/api").body()).path("versions").toString())
        .isEqualTo("[\"v1\"]");

    JsonNode resources = Json.parse(http.get("/api/v1").body()).path("resources");

    assertThat(names(resources))
        .contains(
            "pods",
            "pods/log",
            "pods/status",
            "namespaces",
            "secrets",
            "configmaps",
            "services",
            "events",
            "persistentvolumeclaims",
            "serviceaccounts");
  }

  @Test
  void groupDiscoveryListsBuiltinGroupsAndCrdGroups() {
    JsonNode groups = Json.parse(http.get("/apis").body());

    assertThat(groups.path("kind").asText()).isEqualTo("APIGroupList");
    List<String> names = new ArrayList<>();
    groups.path("groups").forEach(g -> names.add(g.path("name").asText()));
    assertThat(names)
        .contains(
            "apps",
            "batch",
            "networking.k8s.io",
            "coordination.k8s.io",
            "rbac.authorization.k8s.io",
            "apiextensions.k8s.io",
            "threadline.dev");
    assertThat(names(Json.parse(http.get("/apis/batch/v1").body()).path("resources")))
        .contains("jobs", "cronjobs");
  }

  @Test
  void crdGroupDiscoveryDescribesEachKind() {
    JsonNode resources =
        Json.parse(http.get("/apis/threadline.dev/v1alpha1").body()).path("resources");

    assertThat(names(resources))
        .contains("environments", "environments/status", "agents", "agents/status");
    JsonNode environments = find(resources, "environments");
    assertThat(environments.path("singularName").asText()).isEqualTo("environment");
    assertThat(environments.path("kind").asText()).isEqualTo("Environment");
    assertThat(environments.path("namespaced").asBoolean()).isTrue();
    assertThat(environments.path("shortNames").toString()).contains("tle");
    assertThat(environments.path("verbs").toString()).contains("watch", "patch");
    try (KubernetesClient client = api.newClient()) {
      assertThat(client.getApiResources("threadline.dev/v1alpha1").getResources()).isNotEmpty();
    }
  }

  @Test
  void openApiPublishesTheCrdSchemasAsV3AndJsonV2() {
    HttpResponse<String> protobuf =
        http.get(
            "/openapi/v2?timeout=32s",
            "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
    assertThat(protobuf.statusCode()).isEqualTo(200);
    assertThat(protobuf.body()).isEmpty();
    assertThat(protobuf.headers().firstValue("Content-Type"))
        .hasValue("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    JsonNode v2 = Json.parse(http.get("/openapi/v2", "application/json").body());
    assertThat(v2.at("/definitions/dev.threadline.v1alpha1.Environment/properties/spec").isObject())
        .isTrue();

    JsonNode index = Json.parse(http.get("/openapi/v3").body());
    String url = index.at("/paths/apis~1threadline.dev~1v1alpha1/serverRelativeURL").asText();
    assertThat(url).isEqualTo("/openapi/v3/apis/threadline.dev/v1alpha1");
    JsonNode v3 = Json.parse(http.get(url).body());
    JsonNode environment = v3.at("/components/schemas/dev.threadline.v1alpha1.Environment");
    assertThat(environment.at("/x-kubernetes-group-version-kind/0/kind").asText())
        .isEqualTo("Environment");
    assertThat(v3.path("paths").toString()).contains("fieldValidation");
    assertThat(http.get("/openapi/v3/apis/nothing.example/v1").statusCode()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/api/v1/namespaces/x/pods/y/foo",
        "/random",
        "/apis/nope/v1/things",
        "/apis/threadline.dev/v1alpha1/namespaces/default/nothings",
        "/api/v1/namespaces/default/secrets/api-key/exec",
        "/api/v1/namespaces/x/pods/y/log/extra",
        "/",
      })
  void unknownPathsAreNotFoundAndNeverAList(String path) {
    HttpResponse<String> response = http.get(path);

    assertThat(response.statusCode()).isEqualTo(404);
    JsonNode status = Json.parse(response.body());
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("reason").asText()).isEqualTo("NotFound");
    assertThat(status.path("code").asInt()).isEqualTo(404);
    assertThat(response.body()).doesNotContain(SECRET_VALUE).doesNotContain("items");
  }

  @Test
  void aMissingObjectIsANotFoundStatusNamingIt() {
    HttpResponse<String> response =
        http.get("/apis/threadline.dev/v1alpha1/namespaces/default/environments/ghost");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(Json.parse(response.body()).path("message").asText())
        .isEqualTo("environments.threadline.dev \"ghost\" not found");
  }

  private static List<String> names(JsonNode resources) {
    List<String> names = new ArrayList<>();
    resources.forEach(r -> names.add(r.path("name").asText()));
    return names;
  }

  private static JsonNode find(JsonNode resources, String name) {
    for (JsonNode resource : resources) {
      if (resource.path("name").asText().equals(name)) {
        return resource;
      }
    }
    throw new AssertionError("no resource " + name);
  }
}
