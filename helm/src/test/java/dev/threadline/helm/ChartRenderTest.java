package dev.threadline.helm;

import static dev.threadline.helm.RenderedChart.NAMESPACE;
import static dev.threadline.helm.RenderedChart.container;
import static dev.threadline.helm.RenderedChart.env;
import static dev.threadline.helm.RenderedChart.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Lints and renders the chart with helm-java and checks what the manifests promise. */
class ChartRenderTest {

  private static final List<String> THREADLINE_KINDS =
      List.of("environments", "agents", "threads", "runs", "schedules", "containers");

  private static RenderedChart defaults;
  private static RenderedChart nonDefault;

  @BeforeAll
  static void render() {
    defaults = RenderedChart.withDefaults();
    nonDefault = RenderedChart.withNonDefaultValues();
  }

  /** Both value sets, with the names their objects get (fullnameOverride: tl in the second). */
  record ValueSet(String label, RenderedChart chart, String prefix) {
    String operator() {
      return prefix + "-operator";
    }

    String apiServer() {
      return prefix + "-api-server";
    }

    @Override
    public String toString() {
      return label;
    }
  }

  static Stream<ValueSet> valueSets() {
    return Stream.of(
        new ValueSet("default values", defaults, "threadline"),
        new ValueSet("values-non-default.yaml", nonDefault, "tl"));
  }

  @Test
  void lintPassesInStrictMode(@TempDir Path copy) throws IOException {
    LintResult lint = new Helm(ChartPaths.chartWithDatabase(copy)).lint().strict().call();

    assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
    assertThat(lint.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void bothDeploymentsRunHardenedNonRootContainers(ValueSet values) {
    for (String name : List.of(values.operator(), values.apiServer())) {
      JsonNode deployment = values.chart().get("Deployment", name);
      JsonNode pod = deployment.at("/spec/template/spec");
      JsonNode container = container(deployment);

      assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).as(name).isTrue();
      assertThat(pod.at("/securityContext/seccompProfile/type").asText())
          .as(name)
          .isEqualTo("RuntimeDefault");
      JsonNode sc = container.path("securityContext");
      assertThat(sc.path("runAsNonRoot").asBoolean()).as(name).isTrue();
      assertThat(sc.path("runAsUser").asInt()).as(name).isEqualTo(10001);
      assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).as(name).isTrue();
      assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).as(name).isFalse();
      assertThat(texts(sc.at("/capabilities/drop"))).as(name).containsExactly("ALL");
      assertThat(sc.at("/seccompProfile/type").asText()).as(name).isEqualTo("RuntimeDefault");

      // A writable /tmp on an emptyDir, the only writable path.
      JsonNode tmpMount = container.path("volumeMounts").get(0);
      assertThat(tmpMount.path("mountPath").asText()).as(name).isEqualTo("/tmp");
      JsonNode tmpVolume = pod.path("volumes").get(0);
      assertThat(tmpVolume.path("name").asText()).isEqualTo(tmpMount.path("name").asText());
      assertThat(tmpVolume.has("emptyDir")).as(name).isTrue();

      // Both talk to the Kubernetes API: the Pod opts in to the token its ServiceAccount withholds.
      assertThat(pod.path("automountServiceAccountToken").asBoolean()).as(name).isTrue();
      JsonNode account =
          values.chart().get("ServiceAccount", pod.path("serviceAccountName").asText());
      assertThat(account.path("automountServiceAccountToken").asBoolean(true)).as(name).isFalse();

      assertThat(container.at("/resources/requests/memory").isMissingNode()).as(name).isFalse();
      assertThat(container.at("/resources/limits/memory").isMissingNode()).as(name).isFalse();
    }
  }

  @Test
  void probesHitEachComponentsHealthEndpoints() {
    JsonNode operator = container(defaults.get("Deployment", "threadline-operator"));
    assertThat(operator.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
    assertThat(operator.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
    assertThat(operator.at("/livenessProbe/httpGet/port").asText()).isEqualTo("http-health");
    assertThat(operator.at("/ports/0/containerPort").asInt()).isEqualTo(8081);

    JsonNode apiServer = container(defaults.get("Deployment", "threadline-api-server"));
    assertThat(apiServer.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health/live");
    assertThat(apiServer.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/health");
    assertThat(apiServer.at("/ports/0/containerPort").asInt()).isEqualTo(8080);

    JsonNode metrics = defaults.get("Service", "threadline-operator-metrics");
    assertThat(metrics.at("/spec/ports/0/targetPort").asText()).isEqualTo("http-health");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void deltaChannelTokenReachesOperatorAndApiServerFromOneSecret(ValueSet values) {
    String secret = values.prefix() + "-deltas";
    assertThat(values.chart().get("Secret", secret).at("/data/token").asText()).isNotBlank();
    for (String name : List.of(values.operator(), values.apiServer())) {
      JsonNode token =
          env(container(values.chart().get("Deployment", name))).get("THREADLINE_DELTAS_TOKEN");
      assertThat(token.at("/valueFrom/secretKeyRef/name").asText()).as(name).isEqualTo(secret);
      assertThat(token.has("value")).as(name + ": never in plain text").isFalse();
    }
    JsonNode address =
        env(container(values.chart().get("Deployment", values.operator())))
            .get("THREADLINE_DELTAS_ADDRESS");
    assertThat(address.path("value").asText()).startsWith("http://$(POD_IP):");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void noRbacRuleUsesAWildcard(ValueSet values) {
    List<JsonNode> rules =
        Stream.concat(
                values.chart().ofKind("ClusterRole").stream(),
                values.chart().ofKind("Role").stream())
            .flatMap(role -> StreamSupport.stream(role.path("rules").spliterator(), false))
            .toList();

    assertThat(rules).isNotEmpty();
    for (JsonNode rule : rules) {
      for (String field : List.of("apiGroups", "resources", "verbs", "resourceNames")) {
        assertThat(texts(rule.path(field))).as("%s of %s", field, rule).doesNotContain("*");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void apiServerListsSecretsOnlyInTheReleaseNamespaceAndReachesOthersByName(ValueSet values) {
    for (String verb : List.of("list", "watch")) {
      assertThat(values.chart().scopesAllowing(values.apiServer(), "", "secrets", verb))
          .as("where the api-server may %s secrets", verb)
          .containsExactly(NAMESPACE);
    }
    // Environment values live in a Secret per environment in the user's namespace, reached by name:
    // in every namespace, or only in the watched ones (see ChartHardeningTest).
    for (String verb : List.of("get", "create", "update", "delete")) {
      assertThat(values.chart().scopesAllowing(values.apiServer(), "", "secrets", verb))
          .as(verb)
          .isNotEmpty();
    }
    assertThat(values.chart().scopesAllowing(values.apiServer(), "", "secrets", "patch")).isEmpty();
  }

  @Test
  void apiServerManagesThreadlineResourcesAndReadsPodLogsAndNamespaces() {
    String apiServer = "threadline-api-server";
    for (String kind : THREADLINE_KINDS) {
      for (String verb : List.of("create", "get", "list", "watch", "update", "patch", "delete")) {
        assertThat(defaults.scopesAllowing(apiServer, "threadline.dev", kind, verb))
            .as("%s %s", verb, kind)
            .containsExactly((String) null);
      }
      assertThat(defaults.scopesAllowing(apiServer, "threadline.dev", kind + "/status", "get"))
          .hasSize(1);
      // Only a thread's status: a follow-up to an archived thread brings it back with it.
      assertThat(defaults.scopesAllowing(apiServer, "threadline.dev", kind + "/status", "update"))
          .hasSize(kind.equals("threads") ? 1 : 0);
    }
    assertThat(defaults.scopesAllowing(apiServer, "threadline.dev", "containers/status", "patch"))
        .hasSize(1);
    assertThat(defaults.scopesAllowing(apiServer, "threadline.dev", "runs/status", "patch"))
        .isEmpty();
    assertThat(defaults.scopesAllowing(apiServer, "", "pods/log", "get"))
        .containsExactly((String) null);
    assertThat(defaults.scopesAllowing(apiServer, "", "pods", "create")).isEmpty();
    // Idempotency records: created per key, taken over by update, swept when expired.
    for (String verb : List.of("get", "list", "create", "update", "delete")) {
      assertThat(defaults.scopesAllowing(apiServer, "", "configmaps", verb))
          .as(verb)
          .containsExactly((String) null);
    }
    assertThat(defaults.scopesAllowing(apiServer, "", "configmaps", "patch")).isEmpty();
    assertThat(defaults.scopesAllowing(apiServer, "", "namespaces", "list"))
        .containsExactly((String) null);
    assertThat(defaults.scopesAllowing(apiServer, "", "namespaces", "create")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void operatorLeasePermissionIsNamespaced(ValueSet values) {
    for (String verb : List.of("get", "create", "update")) {
      assertThat(
              values
                  .chart()
                  .scopesAllowing(values.operator(), "coordination.k8s.io", "leases", verb))
          .as("where the operator may %s leases", verb)
          .containsExactly(NAMESPACE);
    }
    JsonNode leaseRole = values.chart().get("Role", values.operator() + "-leader-election");
    assertThat(leaseRole.at("/metadata/namespace").asText()).isEqualTo(NAMESPACE);
  }

  @Test
  void operatorIsBoundClusterWideByDefaultAndOnlyInWatchedNamespacesWhenSet() {
    assertThat(defaults.scopesAllowing("threadline-operator", "", "pods", "create"))
        .containsExactly((String) null);

    assertThat(nonDefault.scopesAllowing("tl-operator", "", "pods", "create"))
        .containsExactlyInAnyOrder("alice", "bob");
    assertThat(nonDefault.scopesAllowing("tl-operator", "threadline.dev", "runs", "watch"))
        .containsExactlyInAnyOrder("alice", "bob");
    assertThat(nonDefault.find("ClusterRoleBinding", "tl-operator")).isEmpty();
  }

  /** Tenant plans come from a namespace informer, whatever namespaces are watched. */
  @Test
  void operatorMayListAndWatchNamespacesButNotChangeThem() {
    for (String verb : List.of("get", "list", "watch")) {
      assertThat(defaults.scopesAllowing("threadline-operator", "", "namespaces", verb))
          .as(verb)
          .containsExactly((String) null);
      assertThat(nonDefault.scopesAllowing("tl-operator", "", "namespaces", verb))
          .as(verb)
          .containsExactly((String) null);
    }
    for (String verb : List.of("create", "update", "patch", "delete")) {
      assertThat(defaults.scopesAllowing("threadline-operator", "", "namespaces", verb))
          .as(verb)
          .isEmpty();
    }
  }

  @Test
  void operatorMayDeleteExpiredContainersAndRetainedThreadsAndRunsOnly() {
    for (String kind : List.of("containers", "threads", "runs")) {
      assertThat(defaults.scopesAllowing("threadline-operator", "threadline.dev", kind, "delete"))
          .as(kind)
          .hasSize(1);
    }
    assertThat(
            defaults.scopesAllowing("threadline-operator", "threadline.dev", "schedules", "delete"))
        .isEmpty();
  }

  @Test
  void operatorMayManageWhatItOwnsInUserNamespaces() {
    String operator = "threadline-operator";
    Map<String, List<String>> coreAndBatch =
        Map.of(
            "pods", List.of("get", "list", "watch", "create", "update", "delete"),
            "pods/log", List.of("get"),
            "configmaps", List.of("get", "list", "watch", "create", "update", "patch", "delete"),
            "secrets", List.of("get", "list", "watch", "create", "update", "patch", "delete"),
            "persistentvolumeclaims", List.of("get", "list", "watch", "create", "delete"),
            "events", List.of("create", "patch"));
    coreAndBatch.forEach((resource, verbs) ->
        verbs.forEach(verb ->
            assertThat(defaults.scopesAllowing(operator, "", resource, verb))
                .as("%s %s", verb, resource)
                .containsExactly((String) null)));
    for (String resource : List.of("jobs", "cronjobs")) {
      assertThat(defaults.scopesAllowing(operator, "batch", resource, "create"))
          .containsExactly((String) null);
    }
    assertThat(defaults.scopesAllowing(operator, "networking.k8s.io", "networkpolicies", "create"))
        .containsExactly((String) null);
    for (String kind : THREADLINE_KINDS) {
      assertThat(defaults.scopesAllowing(operator, "threadline.dev", kind, "watch")).hasSize(1);
      assertThat(defaults.scopesAllowing(operator, "threadline.dev", kind + "/status", "patch"))
          .hasSize(1);
      // Expired containers, and finished runs and idle threads past retention, are deleted by it.
      if (!List.of("containers", "threads", "runs").contains(kind)) {
        assertThat(defaults.scopesAllowing(operator, "threadline.dev", kind, "delete"))
            .as(kind)
            .isEmpty();
      }
    }
    // It can bind the trigger role in user namespaces, and no other ClusterRole.
    JsonNode bindRule =
        defaults.grantsTo(operator).stream()
            .map(RenderedChart.Grant::rule)
            .filter(r -> RenderedChart.contains(r.path("verbs"), "bind"))
            .findFirst()
            .orElseThrow();
    assertThat(texts(bindRule.path("resourceNames"))).containsExactly("threadline-trigger");
  }

  @Test
  void webhookDeliveriesAreWrittenByTheOperatorOnlyAndReadByTheApiServerAndUsers() {
    String deliveries = "webhookdeliveries";
    for (String verb : List.of("get", "list", "watch", "create", "delete")) {
      assertThat(defaults.scopesAllowing("threadline-operator", "threadline.dev", deliveries, verb))
          .as(verb)
          .hasSize(1);
    }
    assertThat(
            defaults.scopesAllowing(
                "threadline-operator", "threadline.dev", deliveries + "/status", "update"))
        .hasSize(1);
    assertThat(
            defaults.scopesAllowing("threadline-api-server", "threadline.dev", deliveries, "list"))
        .hasSize(1);
    assertThat(
            defaults.scopesAllowing(
                "threadline-api-server", "threadline.dev", deliveries, "create"))
        .isEmpty();
    assertThat(
            defaults.scopesAllowing(
                "threadline-api-server", "threadline.dev", deliveries + "/status", "update"))
        .isEmpty();
  }

  @ParameterizedTest
  @MethodSource("valueSets")
  void containerFileApisAcceptOnlyTheApiServerPodsTheOperatorIsToldOf(ValueSet values) {
    Map<String, JsonNode> env = env(container(values.chart().get("Deployment", values.operator())));
    JsonNode apiServerPodLabels =
        values.chart().get("Deployment", values.apiServer()).at("/spec/template/metadata/labels");
    String labels = env.get("THREADLINE_API_SERVER_POD_LABELS").path("value").asText();

    assertThat(labels).contains("app.kubernetes.io/component=api-server");
    for (String pair : labels.split(",")) {
      String[] keyValue = pair.split("=", 2);
      assertThat(apiServerPodLabels.path(keyValue[0]).asText()).as(pair).isEqualTo(keyValue[1]);
    }
    assertThat(env.get("THREADLINE_API_SERVER_NAMESPACE").path("value").asText())
        .isEqualTo(
            values
                .chart()
                .get("Deployment", values.apiServer())
                .at("/metadata/namespace")
                .asText());
  }

  @Test
  void withEgressRestrictedTheApiServerStillReachesContainerFileApis() {
    JsonNode egress = nonDefault.get("NetworkPolicy", "tl-api-server").at("/spec/egress");
    assertThat(egress.findValues("port")).extracting(JsonNode::asInt).contains(9090);
    assertThat(egress.findValues("endPort")).isEmpty();
    assertThat(
            env(container(nonDefault.get("Deployment", "tl-operator")))
                .get("THREADLINE_CONTAINER_PORTS")
                .path("value")
                .asText())
        .as("the operator gives container Pods the port the egress rule allows")
        .isEqualTo("9090-9090");
    assertThat(egress.toString()).contains("\"app.kubernetes.io/component\":\"container\"");
  }

  @Test
  void operatorEnvironmentWiresDefaultValues() {
    Map<String, JsonNode> env = env(container(defaults.get("Deployment", "threadline-operator")));

    assertThat(env.get("THREADLINE_WATCH_NAMESPACES").path("value").asText()).isEmpty();
    assertThat(env.get("THREADLINE_RUNNER_IMAGE").path("value").asText())
        .isEqualTo("ghcr.io/threadline/runner:0.1.0");
    assertThat(env.get("THREADLINE_TRIGGER_IMAGE").path("value").asText())
        .isEqualTo("ghcr.io/threadline/trigger:0.1.0");
    assertThat(env.get("THREADLINE_BUILDER_IMAGE").path("value").asText())
        .startsWith("ghcr.io/osscontainertools/kaniko:");
    assertThat(env.get("THREADLINE_BASE_IMAGE").path("value").asText()).isNotBlank();
    assertThat(env.get("THREADLINE_BUILD_TIMEOUT_SECONDS").path("value").asText())
        .isEqualTo("1800");
    assertThat(env.get("THREADLINE_LEADER_ELECTION").path("value").asText()).isEqualTo("true");
    assertThat(env.get("THREADLINE_LEASE_NAMESPACE").at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("metadata.namespace");
    assertThat(env.get("POD_NAMESPACE").at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("metadata.namespace");
    assertThat(env.get("THREADLINE_OPERATOR_HEALTH_PORT").path("value").asText()).isEqualTo("8081");
    assertThat(env.get("THREADLINE_OPERATOR_RECONCILE_THREADS").path("value").asText())
        .isEqualTo("64");
    assertThat(env.get("THREADLINE_OPERATOR_WORKER_LOOPS").path("value").asText())
        .isEqualTo("1000");
    assertThat(env.get("THREADLINE_MODEL_PROVIDER").path("value").asText()).isEqualTo("scripted");
    assertThat(env)
        .containsKeys(
            "THREADLINE_REGISTRY",
            "THREADLINE_REGISTRY_PUSH_SECRET",
            "THREADLINE_MODEL_NAME",
            "THREADLINE_MODEL_BASE_URL",
            "THREADLINE_TRIGGER_CLUSTER_ROLE");
    assertThat(env)
        .as("no model key without models.existingSecret")
        .doesNotContainKey("THREADLINE_MODEL_API_KEY");
    assertThat(env.get("THREADLINE_AGENT_DEADLINE_SECONDS").path("value").asText())
        .isEqualTo("600");
    assertThat(env.get("THREADLINE_AGENT_MEMORY_LIMIT").path("value").asText()).isEqualTo("2Gi");
    assertThat(env.get("THREADLINE_WORKSPACE_SIZE").path("value").asText()).isEqualTo("1Gi");
    assertThat(env)
        .containsKeys(
            "THREADLINE_AGENT_CPU_REQUEST",
            "THREADLINE_AGENT_MEMORY_REQUEST",
            "THREADLINE_AGENT_CPU_LIMIT",
            "THREADLINE_AGENT_CANCEL_GRACE_SECONDS",
            "THREADLINE_WORKSPACE_STORAGE_CLASS",
            "THREADLINE_MODEL_PRICES");
    assertThat(env.get("THREADLINE_WEBHOOK_RETRY_DELAYS").path("value").asText())
        .isEqualTo("10s,40s,160s,640s");
    assertThat(env.get("THREADLINE_WEBHOOK_RETENTION").path("value").asText()).isEqualTo("7d");
    assertThat(env.get("THREADLINE_CONTAINER_PORTS").path("value").asText()).isEqualTo("8080-8080");
    assertThat(env.get("THREADLINE_WEBHOOK_ALLOWED_TARGETS").path("value").asText())
        .isEqualTo("public");
    assertThat(container(defaults.get("Deployment", "threadline-operator")).path("image").asText())
        .isEqualTo("ghcr.io/threadline/operator:0.1.0");
  }

  @Test
  void operatorEnvironmentWiresNonDefaultValues() {
    JsonNode operator = container(nonDefault.get("Deployment", "tl-operator"));
    Map<String, JsonNode> env = env(operator);

    assertThat(env.get("THREADLINE_WATCH_NAMESPACES").path("value").asText())
        .isEqualTo("alice,bob");
    assertThat(env.get("THREADLINE_RUNNER_IMAGE").path("value").asText())
        .isEqualTo("registry.example.com/mirror/runner:0.2.0-rc1");
    assertThat(env.get("THREADLINE_TRIGGER_IMAGE").path("value").asText())
        .isEqualTo("registry.example.com/mirror/trigger:0.2.0-rc1");
    assertThat(env.get("THREADLINE_BASE_IMAGE").path("value").asText())
        .isEqualTo("registry.example.com/base/ubuntu:24.04");
    assertThat(env.get("THREADLINE_REGISTRY").path("value").asText())
        .isEqualTo("registry.example.com/threadline");
    assertThat(env.get("THREADLINE_REGISTRY_PUSH_SECRET").path("value").asText())
        .isEqualTo("registry-push");
    assertThat(env.get("THREADLINE_BUILD_TIMEOUT_SECONDS").path("value").asText()).isEqualTo("900");
    assertThat(env.get("THREADLINE_MODEL_PROVIDER").path("value").asText()).isEqualTo("anthropic");
    assertThat(env.get("THREADLINE_MODEL_NAME").path("value").asText())
        .isEqualTo("claude-sonnet-4-5");
    assertThat(env.get("THREADLINE_LOG_LEVEL").path("value").asText())
        .as("extraEnv")
        .isEqualTo("debug");
    assertThat(env.get("THREADLINE_WEBHOOK_ALLOWED_TARGETS").path("value").asText())
        .isEqualTo("private");
    assertThat(operator.path("image").asText()).isEqualTo("ghcr.io/threadline/operator:0.2.0-rc1");
    assertThat(operator.at("/resources/limits/cpu").asText()).isEqualTo("1");
  }

  @Test
  void usageTiersAndRateLimitsReachBothComponents() {
    Map<String, JsonNode> operator =
        env(container(defaults.get("Deployment", "threadline-operator")));
    Map<String, JsonNode> api = env(container(defaults.get("Deployment", "threadline-api-server")));
    for (Map<String, JsonNode> env : List.of(operator, api)) {
      assertThat(env.get("THREADLINE_USAGE_TIERS").path("value").asText())
          .isEqualTo("enterprise=1000,free=10,pro=100");
      assertThat(env.get("THREADLINE_USAGE_DEFAULT_TIER").path("value").asText()).isEqualTo("free");
    }
    assertThat(api.get("THREADLINE_RATELIMIT_ENABLED").path("value").asText()).isEqualTo("true");
    assertThat(api.get("THREADLINE_RATELIMIT_BURST").path("value").asText()).isEqualTo("300");
    assertThat(api.get("THREADLINE_RATELIMIT_PERMINUTE").path("value").asText()).isEqualTo("1200");
    assertThat(api)
        .as("no deployment environment by default")
        .doesNotContainKey("THREADLINE_DEPLOYMENT_ENV");

    Map<String, JsonNode> custom = env(container(nonDefault.get("Deployment", "tl-api-server")));
    assertThat(custom.get("THREADLINE_USAGE_TIERS").path("value").asText())
        .isEqualTo("basic=2.5,free=10,pro=100,team=50");
    assertThat(custom.get("THREADLINE_USAGE_DEFAULT_TIER").path("value").asText())
        .isEqualTo("basic");
    assertThat(custom.get("THREADLINE_DEPLOYMENT_ENV").path("value").asText()).isEqualTo("prod");
    assertThat(custom.get("THREADLINE_RATELIMIT_BURST").path("value").asText()).isEqualTo("10");
    assertThat(custom.get("THREADLINE_RATELIMIT_PERMINUTE").path("value").asText()).isEqualTo("30");
  }

  @Test
  void webhookTargetsReachBothComponentsFromOneValue() {
    for (String deployment : List.of("threadline-operator", "threadline-api-server")) {
      assertThat(
              env(container(defaults.get("Deployment", deployment)))
                  .get("THREADLINE_WEBHOOK_ALLOWED_TARGETS")
                  .path("value")
                  .asText())
          .as(deployment)
          .isEqualTo("public");
    }
    for (String deployment : List.of("tl-operator", "tl-api-server")) {
      assertThat(
              env(container(nonDefault.get("Deployment", deployment)))
                  .get("THREADLINE_WEBHOOK_ALLOWED_TARGETS")
                  .path("value")
                  .asText())
          .as(deployment)
          .isEqualTo("private");
    }
  }

  @Test
  void httpEdgeBoundsReachTheApiServer() {
    Map<String, JsonNode> api = env(container(defaults.get("Deployment", "threadline-api-server")));
    Map<String, String> expected =
        Map.of(
            "THREADLINE_API_READTIMEOUT", "20s",
            "THREADLINE_API_BODYTIMEOUT", "60s",
            "THREADLINE_API_KEEPALIVETIMEOUT", "20s",
            "THREADLINE_API_MAXKEEPALIVEREQUESTS", "1000",
            "THREADLINE_API_MAXHEADERSIZE", "16KB",
            "THREADLINE_API_MAXREQUESTSPERKEY", "32",
            "THREADLINE_API_MAXSTREAMSPERKEY", "16",
            "THREADLINE_API_MAXREQUESTSPERADDRESS", "64",
            "THREADLINE_API_MAXSTREAMSPERADDRESS", "64");
    expected.forEach((name, value) ->
        assertThat(api.get(name).path("value").asText()).as(name).isEqualTo(value));
    assertThat(api)
        .as("no proxy trusted by default")
        .doesNotContainKey("THREADLINE_API_TRUSTEDPROXIES");

    Map<String, JsonNode> custom = env(container(nonDefault.get("Deployment", "tl-api-server")));
    assertThat(custom.get("THREADLINE_API_BODYTIMEOUT").path("value").asText()).isEqualTo("30s");
    assertThat(custom.get("THREADLINE_API_MAXREQUESTSPERKEY").path("value").asText())
        .isEqualTo("8");
    assertThat(custom.get("THREADLINE_API_TRUSTEDPROXIES").path("value").asText())
        .isEqualTo("10\\.42\\.\\d+\\.\\d+");
  }

  @ParameterizedTest
  @MethodSource("valueSets")
  void modelPricesReachBothComponentsFromOneValue(ValueSet values) {
    String operator = prices(values.chart(), values.operator());
    assertThat(prices(values.chart(), values.apiServer()))
        .as("the api-server refuses exactly the models the operator cannot bill")
        .isEqualTo(operator);
    assertThat(operator)
        .isEqualTo(values.prefix().equals("tl") ? "claude-sonnet-4-5=3/15/0.30,*=5/20" : "");
  }

  private static String prices(RenderedChart chart, String deployment) {
    return env(container(chart.get("Deployment", deployment)))
        .get("THREADLINE_MODEL_PRICES")
        .path("value")
        .asText();
  }

  @Test
  void modelApiKeyComesFromASecretKeyRefNeverAPlainValue() {
    JsonNode apiKey =
        env(container(nonDefault.get("Deployment", "tl-operator"))).get("THREADLINE_MODEL_API_KEY");

    assertThat(apiKey.has("value")).isFalse();
    assertThat(apiKey.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("model-keys");
    assertThat(apiKey.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("anthropic");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void apiServerEnvironmentPointsAtTheReleaseNamespace(ValueSet values) {
    JsonNode container = container(values.chart().get("Deployment", values.apiServer()));
    Map<String, JsonNode> env = env(container);

    assertThat(env.get("THREADLINE_API_ADDRESS").path("value").asText()).isEqualTo("0.0.0.0");
    String port = env.get("THREADLINE_API_PORT").path("value").asText();
    assertThat(container.at("/ports/0/containerPort").asText()).isEqualTo(port);
    assertThat(env.get("THREADLINE_SYSTEM_NAMESPACE").at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("metadata.namespace");
    assertThat(env.get("POD_NAMESPACE").at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("metadata.namespace");
    // Rendered Dockerfiles and build hashes must agree with the operator's.
    Map<String, JsonNode> operatorEnv =
        env(container(values.chart().get("Deployment", values.operator())));
    for (String name : List.of("THREADLINE_RUNNER_IMAGE", "THREADLINE_BASE_IMAGE")) {
      assertThat(env.get(name).path("value").asText())
          .as(name)
          .isNotBlank()
          .isEqualTo(operatorEnv.get(name).path("value").asText());
    }
  }

  @Test
  void podPlacementAndMetadataComeFromValues() {
    JsonNode pod = nonDefault.get("Deployment", "tl-operator").at("/spec/template");

    assertThat(pod.at("/metadata/annotations/prometheus.io~1scrape").asText()).isEqualTo("true");
    assertThat(pod.at("/metadata/labels/tier").asText()).isEqualTo("control");
    assertThat(pod.at("/metadata/labels/app.kubernetes.io~1component").asText())
        .isEqualTo("operator");
    assertThat(pod.at("/spec/nodeSelector/kubernetes.io~1os").asText()).isEqualTo("linux");
    assertThat(pod.at("/spec/tolerations/0/key").asText()).isEqualTo("dedicated");
    assertThat(pod.at("/spec/affinity/nodeAffinity").isMissingNode()).isFalse();
    assertThat(pod.at("/spec/imagePullSecrets/0/name").asText()).isEqualTo("ghcr-pull");
    assertThat(nonDefault.get("Deployment", "tl-operator").at("/spec/replicas").asInt())
        .isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyObjectCarriesTheStandardLabels(ValueSet values) {
    for (JsonNode manifest : values.chart().all()) {
      JsonNode labels = manifest.at("/metadata/labels");
      String what = manifest.path("kind").asText() + " " + manifest.at("/metadata/name").asText();
      assertThat(labels.path("app.kubernetes.io/name").asText()).as(what).isEqualTo("threadline");
      assertThat(labels.path("app.kubernetes.io/instance").asText())
          .as(what)
          .isEqualTo(RenderedChart.RELEASE);
      assertThat(labels.path("app.kubernetes.io/managed-by").asText()).as(what).isEqualTo("Helm");
      assertThat(labels.path("app.kubernetes.io/version").asText()).as(what).isEqualTo("0.1.0");
    }
  }

  @Test
  void deploymentSelectorsMatchTheirPodsAndServicesTheirComponent() {
    for (String component : List.of("operator", "api-server")) {
      JsonNode deployment = defaults.get("Deployment", "threadline-" + component);
      JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
      deployment
          .at("/spec/selector/matchLabels")
          .properties()
          .forEach(
              e -> assertThat(podLabels.path(e.getKey())).as(e.getKey()).isEqualTo(e.getValue()));
      assertThat(deployment.at("/spec/selector/matchLabels/app.kubernetes.io~1component").asText())
          .isEqualTo(component);
    }
    assertThat(
            defaults
                .get("Service", "threadline-api-server")
                .at("/spec/selector/app.kubernetes.io~1component")
                .asText())
        .isEqualTo("api-server");
    assertThat(
            defaults
                .get("Service", "threadline-operator-metrics")
                .at("/spec/selector/app.kubernetes.io~1component")
                .asText())
        .isEqualTo("operator");
  }

  @Test
  void triggerRoleOnlyCreatesThreadsAndRunsAndReadsSchedules() {
    JsonNode trigger = defaults.get("ClusterRole", "threadline-trigger");

    assertThat(trigger.path("rules")).hasSize(4);
    JsonNode create = trigger.at("/rules/0");
    assertThat(texts(create.path("resources"))).containsExactlyInAnyOrder("threads", "runs");
    assertThat(texts(create.path("verbs"))).containsExactly("create");
    JsonNode read = trigger.at("/rules/1");
    assertThat(texts(read.path("resources"))).containsExactly("schedules");
    assertThat(texts(read.path("verbs"))).containsExactly("get");
    assertThat(texts(create.path("apiGroups"))).containsExactly("threadline.dev");
    assertThat(texts(read.path("apiGroups"))).containsExactly("threadline.dev");
    // get finishes an interrupted firing; list counts the user's threads against the thread limit
    // before a firing makes one. Nothing else of ours: no watch, update or delete.
    JsonNode readThreads = trigger.at("/rules/2");
    assertThat(texts(readThreads.path("resources"))).containsExactly("threads");
    assertThat(texts(readThreads.path("verbs"))).containsExactly("get", "list");
    // The firing's Event on its Schedule (ScheduleFired / ScheduleSkipped).
    JsonNode events = trigger.at("/rules/3");
    assertThat(texts(events.path("resources"))).containsExactly("events");
    assertThat(texts(events.path("verbs"))).containsExactly("create");
  }

  @Test
  void aggregatedRolesExtendViewEditAndAdminForAllFiveKinds() {
    JsonNode view = nonDefault.get("ClusterRole", "threadline-view");
    assertThat(view.at("/metadata/labels/rbac.authorization.k8s.io~1aggregate-to-view").asText())
        .isEqualTo("true");
    assertThat(texts(view.at("/rules/0/resources"))).containsAll(THREADLINE_KINDS);
    assertThat(texts(view.at("/rules/0/verbs"))).containsExactlyInAnyOrder("get", "list", "watch");

    JsonNode edit = nonDefault.get("ClusterRole", "threadline-edit");
    assertThat(edit.at("/metadata/labels/rbac.authorization.k8s.io~1aggregate-to-edit").asText())
        .isEqualTo("true");
    assertThat(edit.at("/metadata/labels/rbac.authorization.k8s.io~1aggregate-to-admin").asText())
        .isEqualTo("true");
    assertThat(texts(edit.at("/rules/0/resources")))
        .containsExactlyInAnyOrderElementsOf(THREADLINE_KINDS);
    assertThat(texts(edit.at("/rules/0/verbs")))
        .contains("create", "delete")
        .doesNotContain("escalate", "bind");

    assertThat(defaults.find("ClusterRole", "threadline-view"))
        .as("rbac.aggregatedRoles is off by default")
        .isEmpty();
    assertThat(defaults.find("ClusterRole", "threadline-edit")).isEmpty();
  }

  @Test
  void optionalObjectsFollowTheirFlags() {
    assertThat(defaults.ofKind("Ingress")).isEmpty();
    assertThat(defaults.ofKind("NetworkPolicy")).isEmpty();

    JsonNode ingress = nonDefault.get("Ingress", "tl-api-server");
    assertThat(ingress.at("/spec/ingressClassName").asText()).isEqualTo("nginx");
    assertThat(ingress.at("/spec/rules/0/host").asText()).isEqualTo("api.example.com");
    assertThat(ingress.at("/spec/rules/0/http/paths/0/backend/service/name").asText())
        .isEqualTo("tl-api-server");
    assertThat(ingress.at("/spec/tls/0/secretName").asText()).isEqualTo("api-tls");

    JsonNode apiPolicy = nonDefault.get("NetworkPolicy", "tl-api-server");
    assertThat(apiPolicy.at("/spec/ingress/0/ports/0/port").asInt()).isEqualTo(9090);
    assertThat(apiPolicy.at("/spec/ingress/0/from/0/namespaceSelector").isMissingNode()).isFalse();
    assertThat(texts(apiPolicy.at("/spec/policyTypes"))).containsExactly("Ingress", "Egress");
    JsonNode operatorPolicy = nonDefault.get("NetworkPolicy", "tl-operator");
    assertThat(operatorPolicy.at("/spec/ingress/0/ports/0/port").asInt()).isEqualTo(8081);
    assertThat(
            operatorPolicy
                .at("/spec/podSelector/matchLabels/app.kubernetes.io~1component")
                .asText())
        .isEqualTo("operator");

    assertThat(
            nonDefault.get("PodDisruptionBudget", "tl-api-server").at("/spec/minAvailable").asInt())
        .isEqualTo(1);
    assertThat(
            RenderedChart.render(t -> t.set("apiServer.replicaCount", 1))
                .ofKind("PodDisruptionBudget"))
        .as("no PDB for a single replica")
        .isEmpty();
  }

  @Test
  void leaseRoleIsOmittedWithoutLeaderElection() {
    RenderedChart single =
        RenderedChart.render(t -> t.set("operator.leaderElection.enabled", false));

    assertThat(
            single.scopesAllowing("threadline-operator", "coordination.k8s.io", "leases", "update"))
        .isEmpty();
    assertThat(
            env(container(single.get("Deployment", "threadline-operator")))
                .get("THREADLINE_LEADER_ELECTION")
                .path("value")
                .asText())
        .isEqualTo("false");
  }

  @Test
  void objectLimitsReachTheApiServer() {
    Map<String, JsonNode> api = env(container(defaults.get("Deployment", "threadline-api-server")));
    assertThat(limitsOf(api))
        .containsExactly(
            entry("THREADLINE_LIMITS_THREADS", "2000"),
            entry("THREADLINE_LIMITS_RUNS", "20000"),
            entry("THREADLINE_LIMITS_CONTAINERS", "50"),
            entry("THREADLINE_LIMITS_SCHEDULES", "200"),
            entry("THREADLINE_LIMITS_IDEMPOTENCYRECORDS", "5000"),
            entry("THREADLINE_LIMITS_HISTORYBYTES", "1GB"),
            entry("THREADLINE_LIMITS_QUEUEDMESSAGES", "10"),
            entry("THREADLINE_LIMITS_MINSCHEDULEINTERVAL", "60s"));

    Map<String, JsonNode> custom = env(container(nonDefault.get("Deployment", "tl-api-server")));
    assertThat(limitsOf(custom))
        .as("large counts are written as integers, not in exponent form")
        .containsExactly(
            entry("THREADLINE_LIMITS_THREADS", "10"),
            entry("THREADLINE_LIMITS_RUNS", "3000000"),
            entry("THREADLINE_LIMITS_CONTAINERS", "5"),
            entry("THREADLINE_LIMITS_SCHEDULES", "7"),
            entry("THREADLINE_LIMITS_IDEMPOTENCYRECORDS", "99"),
            entry("THREADLINE_LIMITS_HISTORYBYTES", "512MB"),
            entry("THREADLINE_LIMITS_QUEUEDMESSAGES", "3"),
            entry("THREADLINE_LIMITS_MINSCHEDULEINTERVAL", "15m"));
  }

  @Test
  void threadLimitAndHistoryQuotaReachTheOperatorForScheduleFirings() {
    assertThat(limitsOf(env(container(defaults.get("Deployment", "threadline-operator")))))
        .containsExactly(
            entry("THREADLINE_LIMITS_THREADS", "2000"),
            entry("THREADLINE_LIMITS_HISTORYBYTES", "1GB"));
    assertThat(limitsOf(env(container(nonDefault.get("Deployment", "tl-operator")))))
        .containsExactly(
            entry("THREADLINE_LIMITS_THREADS", "10"),
            entry("THREADLINE_LIMITS_HISTORYBYTES", "512MB"));
  }

  private static Map<String, String> limitsOf(Map<String, JsonNode> env) {
    Map<String, String> limits = new LinkedHashMap<>();
    env.forEach((name, variable) -> {
      if (name.startsWith("THREADLINE_LIMITS_")) {
        limits.put(name, variable.path("value").asText());
      }
    });
    return limits;
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(
            "negative replicas",
            new Object[] {"operator.replicaCount", -1},
            "/operator/replicaCount"),
        Arguments.of(
            "replicas of the wrong type",
            new Object[] {"apiServer.replicaCount", "many"},
            "/apiServer/replicaCount"),
        Arguments.of(
            "an unknown top-level key",
            new Object[] {"replicaCount", 3},
            "additional properties 'replicaCount'"),
        Arguments.of(
            "an unknown model provider",
            new Object[] {"models.provider", "gemini"},
            "/models/provider"),
        Arguments.of(
            "anthropic without a key Secret",
            new Object[] {"models.provider", "anthropic"},
            "/models/existingSecret"),
        Arguments.of(
            "standbys without leader election",
            new Object[] {"operator.leaderElection.enabled", false, "operator.replicaCount", 2},
            "/operator/replicaCount"),
        Arguments.of(
            "a port out of range", new Object[] {"apiServer.port", 70000}, "/apiServer/port"),
        Arguments.of(
            "a container port out of range",
            new Object[] {"containers.port", 0},
            "/containers/port"),
        Arguments.of(
            "a build timeout under a minute",
            new Object[] {"builds.timeoutSeconds", 5},
            "/builds/timeoutSeconds"),
        Arguments.of(
            "a user limit of zero", new Object[] {"limits.containers", 0}, "/limits/containers"),
        Arguments.of(
            "a schedule interval without a unit",
            new Object[] {"limits.minScheduleInterval", "60"},
            "/limits/minScheduleInterval"),
        Arguments.of(
            "an invalid namespace to watch",
            new Object[] {"operator.watchNamespaces[0]", "Not_A_Namespace"},
            "/operator/watchNamespaces/0"));
  }

  @ParameterizedTest(name = "schema rejects {0}")
  @MethodSource("badValues")
  void schemaRejectsBadValues(String what, Object[] sets, String expectedInMessage) {
    TemplateCommand template = RenderedChart.template();
    for (int i = 0; i < sets.length; i += 2) {
      template = template.set((String) sets[i], sets[i + 1]);
    }
    TemplateCommand command = template;

    assertThatThrownBy(command::call)
        .as("values %s", Arrays.toString(sets))
        .hasMessageContaining("values don't meet the specifications of the schema")
        .hasMessageContaining(expectedInMessage);
  }

  @Test
  void kubernetesOlderThan127IsRejected() {
    TemplateCommand onOldCluster = RenderedChart.template().withKubeVersion("1.26.9");

    assertThatThrownBy(onOldCluster::call).hasMessageContaining("kubeVersion");
  }

  @Test
  void notesExplainHowToCreateAUserAndAKeyAndReachTheApi() throws URISyntaxException {
    String notes = installNotes(null);

    assertThat(notes)
        .contains("kubectl label namespace alice threadline.dev/tenant=true")
        .contains("kubectl annotate namespace alice threadline.dev/user=alice")
        .contains("kubectl -n " + NAMESPACE + " create secret generic")
        .contains("--from-literal=user=alice")
        .contains("sha256sum")
        .contains(
            "kubectl -n " + NAMESPACE + " label secret api-key-alice-1 threadline.dev/api-key=true")
        .contains("kubectl -n " + NAMESPACE + " port-forward svc/threadline-api-server 8080:8080");

    assertThat(
            installNotes(
                Path.of(ChartRenderTest.class.getResource("/values-non-default.yaml").toURI())))
        .contains("https://api.example.com/")
        .doesNotContain("port-forward");
  }

  /** NOTES.txt as `helm install --dry-run` renders it, without a cluster. */
  private static String installNotes(Path valuesFile) {
    var install =
        new Helm(ChartPaths.chart())
            .install()
            .withName(RenderedChart.RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(RenderedChart.KUBE_VERSION)
            .clientOnly()
            .dryRun()
            .withValuesFile(RenderedChart.databaseValues());
    if (valuesFile != null) {
      install = install.withValuesFile(valuesFile);
    }
    String output = install.call().getOutput();
    return output.substring(output.indexOf("NOTES:"));
  }
}
