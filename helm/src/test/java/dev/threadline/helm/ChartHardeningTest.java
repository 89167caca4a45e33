package dev.threadline.helm;

import static dev.threadline.helm.RenderedChart.NAMESPACE;
import static dev.threadline.helm.RenderedChart.container;
import static dev.threadline.helm.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the chart does for many tenants: the api-server's narrow rights on Secrets and ConfigMaps,
 * opt-in aggregated roles, and the limits, allowed images and network ranges it hands the operator
 * for agent, container and build Pods.
 */
class ChartHardeningTest {
  private static RenderedChart defaults;
  private static RenderedChart nonDefault;

  @BeforeAll
  static void render() {
    defaults = RenderedChart.withDefaults();
    nonDefault = RenderedChart.withNonDefaultValues();
  }

  @Test
  void apiServerNeverListsOrWatchesSecretsOutsideTheReleaseNamespaceNorPatchesThem() {
    for (RenderedChart chart : List.of(defaults, nonDefault)) {
      String apiServer = chart == defaults ? "threadline-api-server" : "tl-api-server";
      assertThat(chart.scopesAllowing(apiServer, "", "secrets", "list")).containsExactly(NAMESPACE);
      assertThat(chart.scopesAllowing(apiServer, "", "secrets", "watch"))
          .containsExactly(NAMESPACE);
      for (String verb : List.of("patch", "deletecollection", "escalate")) {
        assertThat(chart.scopesAllowing(apiServer, "", "secrets", verb)).as(verb).isEmpty();
      }
      // API keys are read, never written.
      for (String verb : List.of("create", "update", "delete")) {
        assertThat(chart.scopesAllowing(apiServer, "", "secrets", verb))
            .as(verb)
            .doesNotContain(NAMESPACE);
      }
    }
  }

  @Test
  void withWatchedNamespacesTenantDataIsWrittenOnlyThere() {
    for (String resource : List.of("secrets", "configmaps")) {
      for (String verb : List.of("get", "create", "update", "delete")) {
        List<String> expected = new ArrayList<>(List.of("alice", "bob"));
        if (resource.equals("secrets") && verb.equals("get")) {
          expected.add(NAMESPACE); // API keys, through the Role
        }
        assertThat(nonDefault.scopesAllowing("tl-api-server", "", resource, verb))
            .as("%s %s", verb, resource)
            .containsExactlyInAnyOrderElementsOf(expected);
        expected.replaceAll(namespace -> namespace.equals(NAMESPACE) ? NAMESPACE : null);
        assertThat(defaults.scopesAllowing("threadline-api-server", "", resource, verb))
            .as("%s %s without watched namespaces", verb, resource)
            .containsExactlyInAnyOrderElementsOf(expected.stream().distinct().toList());
      }
    }
    // The idempotency sweep lists its records in every namespace; nothing else is cluster-wide.
    assertThat(nonDefault.scopesAllowing("tl-api-server", "", "configmaps", "list"))
        .containsExactly((String) null);
    for (String verb : List.of("watch", "patch")) {
      assertThat(nonDefault.scopesAllowing("tl-api-server", "", "configmaps", verb))
          .as(verb)
          .isEmpty();
    }
  }

  @Test
  void everyApiServerRuleSaysWhyItExists() throws IOException {
    for (String template : List.of("clusterrole.yaml", "role.yaml")) {
      List<String> lines =
          Files.readAllLines(ChartPaths.chart().resolve("templates/api-server").resolve(template));
      List<String> uncommented = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).strip().startsWith("- apiGroups:")) {
          String previous = i == 0 ? "" : lines.get(i - 1).strip();
          boolean firstOfRules = previous.equals("rules:");
          boolean documented =
              previous.startsWith("#") || (firstOfRules && roleIsDocumented(lines, i));
          if (!documented) {
            uncommented.add(template + ":" + (i + 1));
          }
        }
      }
      assertThat(uncommented).as("rules without a comment saying why").isEmpty();
    }
  }

  @Test
  void aggregatedRolesAreOptIn() {
    assertThat(defaults.find("ClusterRole", "threadline-edit")).isEmpty();
    assertThat(defaults.find("ClusterRole", "threadline-view")).isEmpty();
    assertThat(nonDefault.find("ClusterRole", "threadline-edit")).isPresent();
  }

  @Test
  void operatorGetsTheClusterRangesAgentsWithInternetMustNotReach() {
    Map<String, JsonNode> byDefault = operatorEnv(defaults, "threadline-operator");
    assertThat(value(byDefault, "THREADLINE_CLUSTER_POD_CIDRS"))
        .isEqualTo("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10");
    assertThat(value(byDefault, "THREADLINE_CLUSTER_SERVICE_CIDRS")).isEmpty();
    assertThat(value(byDefault, "THREADLINE_CLUSTER_API_SERVER_CIDRS")).isEmpty();

    Map<String, JsonNode> set = operatorEnv(nonDefault, "tl-operator");
    assertThat(value(set, "THREADLINE_CLUSTER_POD_CIDRS")).isEqualTo("10.42.0.0/16,fd42::/48");
    assertThat(value(set, "THREADLINE_CLUSTER_SERVICE_CIDRS")).isEqualTo("10.43.0.0/16");
    assertThat(value(set, "THREADLINE_CLUSTER_API_SERVER_CIDRS")).isEqualTo("192.0.2.10/32");
  }

  @Test
  void agentAndContainerPodsGetEphemeralStorageAndASizedTmp() {
    Map<String, JsonNode> byDefault = operatorEnv(defaults, "threadline-operator");
    assertThat(value(byDefault, "THREADLINE_AGENT_EPHEMERAL_STORAGE_REQUEST")).isEqualTo("256Mi");
    assertThat(value(byDefault, "THREADLINE_AGENT_EPHEMERAL_STORAGE_LIMIT")).isEqualTo("2Gi");
    assertThat(value(byDefault, "THREADLINE_AGENT_CPU_LIMIT")).isEqualTo("2");
    assertThat(value(byDefault, "THREADLINE_AGENT_MEMORY_REQUEST")).isEqualTo("512Mi");
    assertThat(value(byDefault, "THREADLINE_AGENT_TMP_SIZE")).isEqualTo("1Gi");

    Map<String, JsonNode> set = operatorEnv(nonDefault, "tl-operator");
    assertThat(value(set, "THREADLINE_AGENT_EPHEMERAL_STORAGE_LIMIT")).isEqualTo("4Gi");
    assertThat(value(set, "THREADLINE_AGENT_TMP_SIZE")).isEqualTo("512Mi");
  }

  @Test
  void buildsGetLimitsAnAllowListTheirEgressAndAPushStep() {
    Map<String, JsonNode> byDefault = operatorEnv(defaults, "threadline-operator");
    assertThat(value(byDefault, "THREADLINE_BUILD_ALLOWED_IMAGES"))
        .isEqualTo("docker.io/library/*");
    assertThat(value(byDefault, "THREADLINE_BUILD_PUSHER_IMAGE"))
        .startsWith("gcr.io/go-containerregistry/crane:v");
    assertThat(value(byDefault, "THREADLINE_BUILD_LAYER_CACHE")).isEqualTo("false");
    assertThat(value(byDefault, "THREADLINE_BUILD_EPHEMERAL_STORAGE_LIMIT")).isEqualTo("10Gi");
    assertThat(value(byDefault, "THREADLINE_BUILD_MEMORY_LIMIT")).isEqualTo("4Gi");
    assertThat(value(byDefault, "THREADLINE_BUILD_CPU_REQUEST")).isEqualTo("500m");
    assertThat(value(byDefault, "THREADLINE_BUILD_EGRESS_CIDRS")).isEmpty();
    assertThat(value(byDefault, "THREADLINE_BUILD_EGRESS_PORTS")).isEqualTo("80,443");

    Map<String, JsonNode> set = operatorEnv(nonDefault, "tl-operator");
    assertThat(value(set, "THREADLINE_BUILD_ALLOWED_IMAGES"))
        .isEqualTo("registry.example.com/base/*,docker.io/library/python");
    assertThat(value(set, "THREADLINE_BUILD_LAYER_CACHE")).isEqualTo("true");
    assertThat(value(set, "THREADLINE_BUILD_EPHEMERAL_STORAGE_REQUEST")).isEqualTo("4Gi");
    assertThat(value(set, "THREADLINE_BUILD_EGRESS_CIDRS")).isEqualTo("203.0.113.0/24");
    assertThat(value(set, "THREADLINE_BUILD_EGRESS_PORTS")).isEqualTo("443");
  }

  /** The comment block right above a role's {@code rules:} (after its metadata) documents it. */
  private static boolean roleIsDocumented(List<String> lines, int firstRule) {
    for (int i = firstRule - 1; i >= 0; i--) {
      String line = lines.get(i).strip();
      if (line.startsWith("apiVersion:") || line.equals("---")) {
        return i > 0 && lines.get(i - 1).strip().startsWith("#");
      }
    }
    return false;
  }

  private static Map<String, JsonNode> operatorEnv(RenderedChart chart, String deployment) {
    return env(container(chart.get("Deployment", deployment)));
  }

  private static String value(Map<String, JsonNode> env, String name) {
    assertThat(env).containsKey(name);
    return env.get(name).path("value").asText();
  }
}
