package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Server-side apply beside the operator's own writes: the operator (fabric8, an Update on {@code
 * /status}) and a GitOps applier (an Apply of the spec) own different fields and never conflict.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiServerSideApplyTest {
  private static final String ENVIRONMENTS =
      "/apis/threadline.dev/v1alpha1/namespaces/default/environments";

  private EmbeddedKubernetesApi api;
  private KubernetesClient client;
  private RawHttp http;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    client = api.newClient();
    http = new RawHttp(api);
  }

  @AfterAll
  void stop() {
    client.close();
    api.close();
  }

  @Test
  void gitAndTheOperatorOwnTheirOwnFieldsAndAStatusApplyIsItsOwnSubresource() throws Exception {
    String config =
        """
        apiVersion: threadline.dev/v1alpha1
        kind: Environment
        metadata: {name: env-ssa}
        spec: {displayName: From Git}
        status: {buildStatus: ready}
        """;
    HttpResponse<String> created = apply("/env-ssa?fieldManager=flux", config);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(Json.parse(created.body()).has("status"))
        .as("the main resource's apply leaves the status alone")
        .isFalse();

    Environment byOperator = client.resources(Environment.class).withName("env-ssa").get();
    byOperator.setStatus(new EnvironmentStatus());
    byOperator.getStatus().setBuildStatus(BuildStatus.BUILDING);
    client.resources(Environment.class).resource(byOperator).updateStatus();

    HttpResponse<String> again =
        apply("/env-ssa?fieldManager=flux", config.replace("From Git", "Changed in Git"));
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    JsonNode object = Json.parse(again.body());
    assertThat(object.path("status").path("buildStatus").asText()).isEqualTo("building");
    assertThat(object.path("spec").path("displayName").asText()).isEqualTo("Changed in Git");
    assertThat(entry(object, "fabric8-kubernetes-client").path("subresource").asText())
        .isEqualTo("status");

    HttpResponse<String> statusApply =
        apply(
            "/env-ssa/status?fieldManager=builder",
            "apiVersion: threadline.dev/v1alpha1\nkind: Environment\nmetadata: {name: env-ssa}\n"
                + "spec: {displayName: ignored}\nstatus: {buildStatus: failed}\n");
    assertThat(statusApply.statusCode()).as(statusApply.body()).isEqualTo(409);
    assertThat(Json.parse(statusApply.body()).path("details").path("causes").get(0).toString())
        .contains(
            "\"field\":\".status.buildStatus\"",
            "conflict with \\\"fabric8-kubernetes-client\\\" using threadline.dev/v1alpha1");

    HttpResponse<String> forced =
        apply(
            "/env-ssa/status?fieldManager=builder&force=true",
            "apiVersion: threadline.dev/v1alpha1\nkind: Environment\nmetadata: {name: env-ssa}\n"
                + "spec: {displayName: ignored}\nstatus: {buildStatus: failed}\n");
    assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
    JsonNode after = Json.parse(forced.body());
    assertThat(after.path("status").path("buildStatus").asText()).isEqualTo("failed");
    assertThat(after.path("spec").path("displayName").asText()).isEqualTo("Changed in Git");
    assertThat(entry(after, "builder").path("operation").asText()).isEqualTo("Apply");
    assertThat(entry(after, "builder").path("subresource").asText()).isEqualTo("status");
  }

  @Test
  void anApplyOfABadValueIsRefusedWith422AndAnotherKindWith400() throws Exception {
    HttpResponse<String> invalid =
        apply(
            "/env-bad?fieldManager=flux",
            "apiVersion: threadline.dev/v1alpha1\nkind: Environment\nmetadata: {name: env-bad}\n"
                + "spec: {displayName: Bad, internetAccess: sometimes}\n");
    assertThat(invalid.statusCode()).isEqualTo(422);
    assertThat(Json.parse(invalid.body()).path("message").asText())
        .isEqualTo(
            "Environment.threadline.dev \"env-bad\" is invalid: spec.internetAccess: Invalid value:"
                + " \"string\": spec.internetAccess in body must be of type boolean: \"string\"");

    HttpResponse<String> wrongKind =
        apply(
            "/env-bad?fieldManager=flux", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    assertThat(wrongKind.statusCode()).isEqualTo(400);
  }

  private HttpResponse<String> apply(String path, String body) throws Exception {
    return http.send("PATCH", ENVIRONMENTS + path, "application/apply-patch+yaml", body);
  }

  private static JsonNode entry(JsonNode object, String manager) {
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry;
      }
    }
    throw new AssertionError("no managed fields of " + manager + " in " + object);
  }
}
