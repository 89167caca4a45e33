package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's server-side apply, schema validation and strategic merge patch against the
 * embedded API, as against a cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlServerSideApplyTest {
  private EmbeddedKubernetesApi api;
  private Kubectl kubectl;
  private Path temp;

  @BeforeAll
  void start(@TempDir Path temp) {
    Assumptions.assumeTrue(
        Files.isExecutable(Kubectl.BINARY), "kubectl is not installed at " + Kubectl.BINARY);
    this.temp = temp;
    api = EmbeddedKubernetesApi.start(EmbeddedApiSettings.defaults());
    kubectl = new Kubectl(api.writeKubeconfig(temp.resolve("kubeconfig")), temp.resolve("cache"));
  }

  @AfterAll
  void stop() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void everyExampleAppliesTwiceThenChangesThenConflictsThenIsForced() throws IOException {
    List<Path> examples;
    try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
      examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(examples).isNotEmpty();
    for (Path example : examples) {
      String namespace = "ssa-" + example.getFileName().toString().replace(".yaml", "");
      Path namespaceManifest = temp.resolve(namespace + ".yaml");
      Files.writeString(
          namespaceManifest, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + namespace);
      Kubectl.Result created =
          kubectl.run("apply", "--server-side", "-f", namespaceManifest.toString());
      assertThat(created.exitCode()).as(created.err()).isZero();
      String manifest = example.toAbsolutePath().toString();

      Kubectl.Result first = apply(namespace, manifest);
      assertThat(first.exitCode()).as(example + ": " + first.err()).isZero();
      assertThat(first.out()).contains("serverside-applied");
      String versions = resourceVersions(namespace);

      Kubectl.Result second = apply(namespace, manifest);
      assertThat(second.exitCode()).as(second.err()).isZero();
      assertThat(resourceVersions(namespace))
          .as("a second apply changes nothing")
          .isEqualTo(versions);

      Path changed = changedCopy(example, "Changed by Git");
      Kubectl.Result dryRun =
          kubectl.run(
              "apply",
              "--server-side",
              "--dry-run=server",
              "-n",
              namespace,
              "-f",
              changed.toString());
      assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
      assertThat(resourceVersions(namespace)).as("a dry run stores nothing").isEqualTo(versions);
      Kubectl.Result update = apply(namespace, changed.toString());
      assertThat(update.exitCode()).as(update.err()).isZero();
      JsonNode object = customResource(namespace, example);
      assertThat(object.path("spec").path("displayName").asText()).isEqualTo("Changed by Git");
      assertThat(managers(object)).contains("kubectl");

      Path other = changedCopy(example, "Changed by hand");
      Kubectl.Result conflict =
          kubectl.run(
              "apply",
              "--server-side",
              "--field-manager=hand",
              "-n",
              namespace,
              "-f",
              other.toString());
      assertThat(conflict.exitCode()).isNotZero();
      assertThat(conflict.err())
          .contains(
              "Apply failed with 1 conflict: conflict with \"kubectl\" using"
                  + " threadline.dev/v1alpha1: .spec.displayName");

      Kubectl.Result forced =
          kubectl.run(
              "apply",
              "--server-side",
              "--field-manager=hand",
              "--force-conflicts",
              "-n",
              namespace,
              "-f",
              other.toString());
      assertThat(forced.exitCode()).as(forced.err()).isZero();
      object = customResource(namespace, example);
      assertThat(object.path("spec").path("displayName").asText()).isEqualTo("Changed by hand");
      assertThat(managers(object)).contains("hand");
    }
  }

  private Kubectl.Result apply(String namespace, String manifest) {
    return kubectl.run("apply", "--server-side", "-n", namespace, "-f", manifest);
  }

  private String resourceVersions(String namespace) {
    return kubectl
        .run(
            "get",
            "all,secrets,agents,environments,schedules",
            "-n",
            namespace,
            "-o",
            "jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion} {end}")
        .out();
  }

  private Path changedCopy(Path example, String displayName) throws IOException {
    String text = Files.readString(example);
    String changed = text.replaceFirst("(?m)^  displayName: .*$", "  displayName: " + displayName);
    assertThat(changed).as(example + " has a spec.displayName").isNotEqualTo(text);
    Path copy = temp.resolve(displayName.replace(' ', '-') + "-" + example.getFileName());
    Files.writeString(copy, changed);
    return copy;
  }

  private JsonNode customResource(String namespace, Path example) throws IOException {
    String text = Files.readString(example);
    String kind =
        text.contains("kind: Environment")
            ? "environments"
            : text.contains("kind: Schedule") ? "schedules" : "agents";
    Kubectl.Result got =
        kubectl.run("get", kind, "-n", namespace, "-o", "json", "--show-managed-fields");
    assertThat(got.exitCode()).as(got.err()).isZero();
    return Json.parse(got.out()).path("items").path(0);
  }

  private static List<String> managers(JsonNode object) {
    return object.path("metadata").path("managedFields").findValuesAsText("manager");
  }

  @Test
  void aManifestACLusterRefusesIsRefusedWith422NamingTheField() throws IOException {
    Kubectl.Result typed =
        kubectl.run(
            "apply",
            "-f",
            write("typed.yaml", schedule("sched-typed", "  enabled: \"yes\"\n  task: t\n")));
    assertThat(typed.exitCode()).isNotZero();
    assertThat(typed.err())
        .contains(
            "The Schedule \"sched-typed\" is invalid: spec.enabled: Invalid value:"
                + " \"string\": spec.enabled in body must be of type boolean: \"string\"");

    Kubectl.Result required =
        kubectl.run(
            "apply", "--server-side", "-f", write("required.yaml", schedule("sched-untasked", "")));
    assertThat(required.exitCode()).isNotZero();
    assertThat(required.err())
        .contains("The Schedule \"sched-untasked\" is invalid: spec.task: Required value");

    Kubectl.Result enumerated =
        kubectl.run(
            "apply",
            "-f",
            write(
                "enum.yaml",
                """
                apiVersion: threadline.dev/v1alpha1
                kind: Agent
                metadata:
                  name: agent-bad-event
                spec:
                  displayName: Bad event
                  provider: scripted
                  model: scripted-1
                  webhooks:
                    - url: https://ci.example.com/hook
                      events: [run.exploded]
                      secretRef: {name: s, key: k}
                """));
    assertThat(enumerated.exitCode()).isNotZero();
    assertThat(enumerated.err())
        .contains(
            "spec.webhooks[0].events[0]: Unsupported value: \"run.exploded\": supported"
                + " values: \"");
    assertThat(kubectl.run("get", "schedules,agents", "-o", "name").out())
        .doesNotContain("sched-typed", "sched-untasked", "agent-bad-event");
  }

  @Test
  void aStrategicMergePatchMergesContainersByNameAndIsRefusedForCustomResources()
      throws IOException {
    Kubectl.Result created =
        kubectl.run(
            "apply",
            "--server-side",
            "-f",
            write(
                "pod.yaml",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: two-containers
                  namespace: default
                spec:
                  containers:
                    - name: app
                      image: app:1
                    - name: side
                      image: side:1
                """));
    assertThat(created.exitCode()).as(created.err()).isZero();

    Kubectl.Result patched =
        kubectl.run(
            "patch",
            "pod",
            "two-containers",
            "--type",
            "strategic",
            "-p",
            "{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:2\"}]}}");
    assertThat(patched.exitCode()).as(patched.err()).isZero();
    JsonNode pod = Json.parse(kubectl.run("get", "pod", "two-containers", "-o", "json").out());
    assertThat(pod.path("spec").path("containers").findValuesAsText("image"))
        .containsExactly("app:2", "side:1");

    Kubectl.Result configMap =
        kubectl.run(
            "apply",
            "--server-side",
            "-f",
            write(
                "cm.yaml",
                "apiVersion: v1\n"
                    + "kind: ConfigMap\n"
                    + "metadata:\n"
                    + "  name: cm\n"
                    + "  namespace: default\n"
                    + "data:\n"
                    + "  a: \"1\"\n"));
    assertThat(configMap.exitCode()).as(configMap.err()).isZero();
    assertThat(
            kubectl
                .run(
                    "patch",
                    "configmap",
                    "cm",
                    "--type",
                    "strategic",
                    "-p",
                    "{\"data\":{\"b\":\"2\"}}")
                .exitCode())
        .isZero();
    assertThat(kubectl.run("get", "configmap", "cm", "-o", "jsonpath={.data}").out())
        .isEqualTo("{\"a\":\"1\",\"b\":\"2\"}");

    assertThat(
            kubectl
                .run(
                    "apply",
                    "--server-side",
                    "-f",
                    Path.of("..", "examples", "agent.yaml").toAbsolutePath().toString())
                .exitCode())
        .isZero();
    Kubectl.Result refused =
        kubectl.run(
            "patch",
            "agent",
            "agent-reviewer",
            "--type",
            "strategic",
            "-p",
            "{\"spec\":{\"displayName\":\"x\"}}");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err())
        .contains(
            "the body of the request was in an unknown format - accepted media types"
                + " include: application/json-patch+json, application/merge-patch+json,"
                + " application/apply-patch+yaml");
  }

  private static String schedule(String name, String spec) {
    return "apiVersion: threadline.dev/v1alpha1\nkind: Schedule\nmetadata:\n  name: "
        + name
        + "\n  namespace: default\nspec:\n  displayName: Typed\n  scheduleType: recurring\n"
        + "  cronExpression: \"0 9 * * 1-5\"\n  agent: agent-reviewer\n"
        + spec;
  }

  private String write(String name, String content) throws IOException {
    Path file = temp.resolve(name);
    Files.writeString(file, content);
    return file.toString();
  }
}
