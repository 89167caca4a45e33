package dev.threadline.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The local mode runs its operator, api-server and schedule trigger under the identities and the
 * RBAC rules this chart gives them: it installs {@code local/.../chart-rbac.yaml}, which this test
 * renders from the chart (release {@value RenderedChart#RELEASE} in {@value
 * RenderedChart#NAMESPACE}, the local mode's system namespace; the user-facing roles on, since the
 * local mode binds them in each user's namespace). The committed file must be what the chart
 * renders now; {@code -Dthreadline.rbac.update=true} rewrites it.
 */
class ChartRbacForLocalModeTest {
  private static final Set<String> KINDS =
      Set.of("ServiceAccount", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding");
  private static final String HEADER =
      "# Generated from the Helm chart (helm/threadline) by ChartRbacForLocalModeTest: do not"
          + " edit.\n"
          + "# Regenerate: ./mvnw -o -pl helm test -Dtest=ChartRbacForLocalModeTest"
          + " -Dthreadline.rbac.update=true\n";

  static Path committed() {
    return ChartPaths.repositoryRoot()
        .resolve("local/src/main/resources/dev/threadline/local/chart-rbac.yaml");
  }

  /** The chart's ServiceAccounts, roles and bindings, as the local mode installs them. */
  static String rendered() throws IOException {
    List<JsonNode> objects =
        RenderedChart.render(t -> t.set("rbac.aggregatedRoles", "true")).all().stream()
            .filter(m -> KINDS.contains(m.path("kind").asText()))
            .toList();
    YAMLMapper yaml =
        YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build();
    StringBuilder text = new StringBuilder(HEADER);
    for (JsonNode object : objects) {
      text.append("---\n").append(yaml.writeValueAsString(object));
    }
    return text.toString();
  }

  @Test
  void theLocalModeInstallsTheRbacTheChartRenders() throws IOException {
    String rendered = rendered();
    if (Boolean.getBoolean("threadline.rbac.update")) {
      Files.writeString(committed(), rendered);
    }
    assertThat(Files.exists(committed()) ? Files.readString(committed()) : "")
        .as(
            committed()
                + " differs from the chart's RBAC; run `./mvnw -o -pl helm test"
                + " -Dtest=ChartRbacForLocalModeTest -Dthreadline.rbac.update=true`")
        .isEqualTo(rendered);
  }

  @Test
  void itNamesEachComponentsServiceAccountAndTheTriggerRole() throws IOException {
    String rendered = rendered();
    assertThat(rendered)
        .contains("name: \"threadline-operator\"")
        .contains("name: \"threadline-api-server\"")
        .contains("name: \"threadline-trigger\"")
        .contains("kind: \"ServiceAccount\"");
  }
}
