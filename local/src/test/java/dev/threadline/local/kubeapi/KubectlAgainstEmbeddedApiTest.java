package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.environment.Environment;
import dev.threadline.local.podlog.BufferedPodLog;
import dev.threadline.local.podlog.PodLog;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl cannot tell the embedded API from a cluster for what Threadline needs. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAgainstEmbeddedApiTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private final Map<String, BufferedPodLog> logs = new ConcurrentHashMap<>();
  private EmbeddedKubernetesApi api;
  private KubernetesClient client;
  private Kubectl kubectl;

  @BeforeAll
  void start(@TempDir Path temp) {
    Assumptions.assumeTrue(
        Files.isExecutable(Kubectl.BINARY), "kubectl is not installed at " + Kubectl.BINARY);
    List<URL> crds = new ArrayList<>(EmbeddedApiSettings.defaults().crdResources());
    crds.add(KubectlAgainstEmbeddedApiTest.class.getResource("/kubectl/widgets.example.dev.yaml"));
    api =
        EmbeddedKubernetesApi.start(
            EmbeddedApiSettings.builder()
                .podLogs((ns, pod, container) -> Optional.<PodLog>ofNullable(logs.get(pod)))
                .crdResources(crds)
                .build());
    client = api.newClient();
    kubectl = new Kubectl(api.writeKubeconfig(temp.resolve("kubeconfig")), temp.resolve("cache"));
  }

  @AfterAll
  void stop() {
    if (api != null) {
      client.close();
      api.close();
    }
  }

  @Test
  @Order(1)
  void applyCreatesThenConfiguresACustomResource() {
    Kubectl.Result created = kubectl.run("apply", "-f", manifest("environment-demo.yaml"));
    assertThat(created.out())
        .as(created.err())
        .contains("environment.threadline.dev/env-demo created");

    Kubectl.Result configured =
        kubectl.run("apply", "-f", manifest("environment-demo-renamed.yaml"));
    assertThat(configured.out())
        .as(configured.err())
        .contains("environment.threadline.dev/env-demo configured");

    var stored =
        client
            .genericKubernetesResources("threadline.dev/v1alpha1", "Environment")
            .withName("env-demo")
            .get();
    assertThat(stored.get("spec", "displayName").toString()).isEqualTo("Demo Two");
    assertThat(stored.get("spec", "packages", "system").toString())
        .as("lists are replaced")
        .isEqualTo("[curl]");
  }

  @Test
  @Order(2)
  void getPrintsThePrinterColumns() {
    Kubectl.Result result = kubectl.run("get", "environments");

    assertThat(result.err()).isEmpty();
    String[] lines = result.out().split("\n");
    // In the order Environment declares them (the committed CRD, not the generator's sorted one).
    assertThat(lines[0])
        .matches("NAME\\s+DISPLAY NAME\\s+BUILD\\s+DEFAULT\\s+POOL READY\\s+READY\\s+AGE\\s*");
    // The age is rendered server-side ("3s").
    assertThat(lines[1])
        .containsPattern("^env-demo\\s+Demo Two\\s+.*\\s+false\\s+.*\\s+\\d+s\\s*$");
  }

  @Test
  @Order(3)
  void getByShortNameAsYaml() {
    Kubectl.Result result = kubectl.run("get", "tle", "env-demo", "-o", "yaml");

    assertThat(result.out())
        .as(result.err())
        .contains(
            "kind: Environment", "name: env-demo", "displayName: Demo Two", "resourceVersion:");
  }

  @Test
  @Order(4)
  void describeShowsTheSpec() {
    Kubectl.Result result = kubectl.run("describe", "environment", "env-demo");

    assertThat(result.out())
        .as(result.err())
        .contains("Name:", "env-demo", "Display Name:", "Demo Two");
  }

  @Test
  @Order(5)
  void logsAndFollowedLogsOfAPod() {
    client
        .pods()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("agent-pod")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("runner")
                .withImage("runner")
                .endContainer()
                .endSpec()
                .build())
        .create();
    BufferedPodLog log = new BufferedPodLog();
    logs.put("agent-pod", log);
    log.append("{\"type\":\"started\"}\n".getBytes(StandardCharsets.UTF_8));

    assertThat(kubectl.run("logs", "agent-pod").out()).isEqualTo("{\"type\":\"started\"}\n");

    Process follow = kubectl.start("logs", "-f", "agent-pod");
    StringBuffer followed = Kubectl.collect(follow.getInputStream());
    await().atMost(PROMPTLY).until(() -> followed.toString().contains("started"));
    log.append("{\"type\":\"result\"}\n".getBytes(StandardCharsets.UTF_8));
    await().atMost(PROMPTLY).until(() -> followed.toString().contains("result"));
    log.finish();
    await().atMost(PROMPTLY).until(() -> !follow.isAlive());
    assertThat(follow.exitValue()).isZero();
  }

  @Test
  @Order(6)
  void getWatchPrintsNewObjects() {
    Process watch = kubectl.start("get", "environments", "-w");
    StringBuffer out = Kubectl.collect(watch.getInputStream());
    try {
      await().atMost(PROMPTLY).until(() -> out.toString().contains("env-demo"));
      client
          .resources(dev.threadline.crds.environment.Environment.class)
          .resource(EmbeddedKubernetesApiCrudTest.environment("env-watched"))
          .create();
      await().atMost(PROMPTLY).until(() -> out.toString().contains("env-watched"));
      assertThat(out.toString().lines().filter(line -> line.startsWith("NAME")))
          .as("one header")
          .hasSize(1);
    } finally {
      watch.destroy();
    }
  }

  @Test
  @Order(7)
  void deleteRemovesTheResource() {
    Kubectl.Result deleted = kubectl.run("delete", "environment", "env-demo");
    assertThat(deleted.out())
        .as(deleted.err())
        .contains("environment.threadline.dev \"env-demo\" deleted");

    Kubectl.Result missing = kubectl.run("get", "environment", "env-demo");
    assertThat(missing.exitCode()).isNotZero();
    assertThat(missing.err())
        .contains("NotFound", "environments.threadline.dev \"env-demo\" not found");
  }

  @Test
  @Order(8)
  void categoriesSingularNamesAndSchemaDefaultsWork() {
    kubectl.run("apply", "-f", manifest("widget.yaml"));

    Kubectl.Result byCategory = kubectl.run("get", "example");
    // One kind in the category, so kubectl prints no kind prefix.
    assertThat(byCategory.out()).as(byCategory.err()).containsPattern("NAME\\s+SIZE\\s*\\nw1\\s+3");
    Kubectl.Result bySingular = kubectl.run("get", "widget", "w1");
    assertThat(bySingular.out().lines().toList().get(1))
        .as("the schema default shows in the Size column")
        .matches("w1\\s+3\\s*");
  }

  @Test
  @Order(9)
  void applyOfABuiltinKindTwiceRemovesWhatTheManifestDropped() {
    assertThat(kubectl.run("apply", "-f", manifest("configmap.yaml")).out())
        .contains("configmap/settings created");
    Kubectl.Result configured = kubectl.run("apply", "-f", manifest("configmap-changed.yaml"));
    assertThat(configured.out()).as(configured.err()).contains("configmap/settings configured");

    assertThat(client.configMaps().withName("settings").get().getData())
        .containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "c", "3"));
  }

  @Test
  @Order(10)
  void explainPrintsTheDescriptionsOfACustomResourcesFields() {
    Kubectl.Result explained = kubectl.run("explain", "environments.spec");
    assertThat(explained.exitCode()).as(explained.err()).isZero();
    assertThat(explained.out())
        .contains("KIND:", "Environment", "displayName", "Custom base image");
  }

  @Test
  @Order(11)
  void anUnknownFieldIsRefusedWhenStrictAndPrunedOtherwise() {
    Kubectl.Result strict =
        kubectl.run("apply", "--validate=strict", "-f", manifest("environment-bogus.yaml"));
    assertThat(strict.exitCode()).isNotZero();
    assertThat(strict.err()).contains("unknown field \"spec.bogusField\"");

    Kubectl.Result lenient =
        kubectl.run("apply", "--validate=false", "-f", manifest("environment-bogus.yaml"));
    assertThat(lenient.out()).as(lenient.err()).contains("env-bogus created");
    Environment stored =
        client.resources(Environment.class).inNamespace("default").withName("env-bogus").get();
    assertThat(stored.getSpec().getDisplayName()).isEqualTo("Bogus");
    assertThat(
            client
                .genericKubernetesResources("threadline.dev/v1alpha1", "Environment")
                .inNamespace("default")
                .withName("env-bogus")
                .get()
                .getAdditionalProperties()
                .get("spec")
                .toString())
        .doesNotContain("bogusField");
  }

  private static String manifest(String name) {
    try {
      return Path.of(KubectlAgainstEmbeddedApiTest.class.getResource("/kubectl/" + name).toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
