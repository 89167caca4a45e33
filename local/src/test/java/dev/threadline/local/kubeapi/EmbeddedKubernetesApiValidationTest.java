package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The CRDs' validation rules (CEL), as the embedded API enforces them on writes the way a cluster
 * does: the committed examples keep them all, and each rule refuses what it is there to refuse,
 * with its message in a 422.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedKubernetesApiValidationTest {
  private static final String NS = "default";
  private EmbeddedKubernetesApi api;
  private KubernetesClient client;

  @BeforeAll
  void start() {
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    client = api.newClient();
  }

  @AfterAll
  void stop() {
    client.close();
    api.close();
  }

  @Test
  void everyExampleManifestKeepsTheRules() throws IOException {
    List<Path> examples;
    try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
      examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(examples).isNotEmpty();
    for (Path example : examples) {
      try (InputStream in = Files.newInputStream(example)) {
        for (HasMetadata object : client.load(in).items()) {
          object.getMetadata().setNamespace(NS);
          assertThat(client.resource(object).inNamespace(NS).create())
              .as(example.toString())
              .isNotNull();
        }
      }
    }
  }

  @Test
  void aRecurringScheduleNeedsACronExpressionAndAOneTimeOneATime() {
    assertRefused(
        schedule("sched-no-cron", Map.of("scheduleType", "recurring", "task", "t", "agent", "a")),
        "Schedule.threadline.dev \"sched-no-cron\" is invalid: spec: Invalid value: \"object\": ",
        "cronExpression");
    assertRefused(
        schedule("sched-no-time", Map.of("scheduleType", "one-time", "task", "t", "agent", "a")),
        "Schedule.threadline.dev \"sched-no-time\" is invalid: spec: Invalid value: \"object\": ",
        "scheduledTime");
  }

  @Test
  void nameLengthRulesAtTheRootAreReportedAtTheRoot() {
    String name = "sched-" + "x".repeat(50);
    assertRefused(
        schedule(
            name,
            Map.of(
                "scheduleType",
                "recurring",
                "cronExpression",
                "0 9 * * *",
                "task",
                "t",
                "agent",
                "a")),
        "is invalid: <nil>: Invalid value: \"object\": a Schedule's name may have at most 52"
            + " characters");
  }

  @Test
  void aNameOutsideTheRestIdSchemeIsRefusedWithTheScheme() {
    assertRefused(
        environment("kc-123", Map.of()),
        "Environment.threadline.dev \"kc-123\" is invalid: <nil>: Invalid value: \"object\": an"
            + " Environment's name is env-, then lower-case letters, digits or dashes: the REST id"
            + " with its first _ as - (e.g. env-python-data)");
    assertRefused(
        resource("Agent", "reviewer", Map.of("model", "m", "instructions", "i")),
        "an Agent's name is agent-");
    assertRefused(resource("Thread", "chat-1", Map.of()), "a Thread's name is thread-");
    assertThat(client.resource(environment("env-kc-123", Map.of())).inNamespace(NS).create())
        .isNotNull();
  }

  @Test
  void anEnvironmentRefusesDuplicatesAndIncompleteMcpServersAndDocuments() {
    assertRefused(
        environment(
            "env-dup-vars",
            Map.of(
                "environmentVariables",
                List.of(Map.of("key", "A", "value", "1"), Map.of("key", "A", "value", "2")))),
        "spec: Invalid value: \"object\": environment variable keys must be unique");
    assertRefused(
        environment(
            "env-dup-secrets",
            Map.of("secrets", List.of(Map.of("name", "TOKEN"), Map.of("name", "TOKEN")))),
        "spec: Invalid value: \"object\": secret names must be unique");
    assertRefused(
        environment(
            "env-dup-mcp",
            Map.of(
                "mcpServers",
                List.of(
                    Map.of("name", "web", "type", "http", "url", "https://a.example"),
                    Map.of("name", "web", "type", "http", "url", "https://b.example")))),
        "spec: Invalid value: \"object\": MCP server names must be unique");
    assertRefused(
        environment(
            "env-doc-both",
            Map.of(
                "documentation",
                List.of(
                    Map.of(
                        "title", "Guide", "content", "# Guide", "url", "https://docs.example")))),
        "spec.documentation[0]: Invalid value: \"object\": a document has either content or url");
    assertRefused(
        environment("env-doc-neither", Map.of("documentation", List.of(Map.of("title", "Guide")))),
        "spec.documentation[0]: Invalid value: \"object\": a document has either content or url");
    assertRefused(
        environment(
            "env-stdio", Map.of("mcpServers", List.of(Map.of("name", "files", "type", "stdio")))),
        "spec.mcpServers[0]: Invalid value: \"object\": a stdio MCP server needs a command");
    assertRefused(
        environment(
            "env-http", Map.of("mcpServers", List.of(Map.of("name", "web", "type", "http")))),
        "spec.mcpServers[0]: Invalid value: \"object\": an http MCP server needs a url");
  }

  @Test
  void everyBrokenRuleIsListedAndTheCausesNameTheirFields() {
    var refused =
        assertThatThrownBy(() ->
                client
                    .resource(
                        environment(
                            "env-two",
                            Map.of(
                                "mcpServers",
                                List.of(
                                    Map.of("name", "files", "type", "stdio"),
                                    Map.of("name", "web", "type", "http")))))
                    .inNamespace(NS)
                    .create())
            .isInstanceOf(KubernetesClientException.class)
            .extracting(e -> ((KubernetesClientException) e).getStatus());
    refused.extracting(status -> status.getCode()).isEqualTo(422);
    refused
        .extracting(status -> status.getMessage())
        .asString()
        .contains(
            "is invalid: [spec.mcpServers[0]: Invalid value",
            ", spec.mcpServers[1]: Invalid value");
    refused
        .extracting(
            status -> status.getDetails().getCauses().stream().map(c -> c.getField()).toList())
        .isEqualTo(List.of("spec.mcpServers[0]", "spec.mcpServers[1]"));
  }

  @Test
  void updatesAndPatchesAreCheckedButStatusWritesAreNot() {
    GenericKubernetesResource created =
        client
            .resource(
                schedule(
                    "sched-later",
                    Map.of(
                        "scheduleType",
                        "recurring",
                        "cronExpression",
                        "0 9 * * *",
                        "task",
                        "t",
                        "agent",
                        "a")))
            .inNamespace(NS)
            .create();

    assertThatThrownBy(() ->
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Schedule")
                .inNamespace(NS)
                .withName("sched-later")
                .patch(
                    PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cronExpression\":null}}"))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("cronExpression");
    created.getAdditionalProperties().put("status", Map.of("lastRunAt", "2026-11-22T09:00:00Z"));
    assertThat(client.resource(created).inNamespace(NS).updateStatus()).isNotNull();
  }

  private void assertRefused(GenericKubernetesResource object, String... messageParts) {
    assertThatThrownBy(() -> client.resource(object).inNamespace(NS).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> {
          KubernetesClientException refused = (KubernetesClientException) e;
          assertThat(refused.getCode()).isEqualTo(422);
          assertThat(refused.getStatus().getReason()).isEqualTo("Invalid");
          assertThat(refused.getStatus().getMessage()).contains(messageParts);
        });
  }

  private static GenericKubernetesResource schedule(String name, Map<String, Object> spec) {
    return resource("Schedule", name, spec);
  }

  /** An Environment with {@code spec}, and the display name its schema requires. */
  private static GenericKubernetesResource environment(String name, Map<String, Object> spec) {
    Map<String, Object> complete = new HashMap<>(spec);
    complete.putIfAbsent("displayName", "Test");
    return resource("Environment", name, complete);
  }

  private static GenericKubernetesResource resource(
      String kind, String name, Map<String, Object> spec) {
    return Serialization.unmarshal(
        Serialization.asJson(
            Map.of(
                "apiVersion",
                "threadline.dev/v1alpha1",
                "kind",
                kind,
                "metadata",
                Map.of("name", name, "namespace", NS),
                "spec",
                spec)),
        GenericKubernetesResource.class);
  }
}
