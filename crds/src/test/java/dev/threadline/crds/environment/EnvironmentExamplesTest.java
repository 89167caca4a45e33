package dev.threadline.crds.environment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.ExampleManifests;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The example manifests read as Environments, with every value kept out of the spec. */
class EnvironmentExamplesTest {
  @Test
  void gitOpsExampleReferencesItsSecretAndAsksForABuild() throws IOException {
    Environment environment = environmentIn("environment-gitops.yaml");
    EnvironmentSpec spec = environment.getSpec();

    assertThat(spec.getEnvironmentVariables())
        .singleElement()
        .satisfies(variable -> {
          assertThat(variable.getKey()).isEqualTo("DATABASE_URL");
          assertThat(variable.getValueFrom().getSecretKeyRef().getName())
              .isEqualTo("data-team-credentials");
        });
    assertThat(spec.getSecrets().get(0).getValueFrom().getSecretKeyRef().getKey())
        .isEqualTo("github-token");
    assertThat(spec.getMcpServers())
        .extracting(McpServer::getName)
        .containsExactly("search", "files");
    assertThat(spec.getMcpServers().get(0).getStartupTimeoutSec())
        .isEqualTo(McpServer.DEFAULT_STARTUP_TIMEOUT_SEC);
    assertThat(spec.getMcpServers().get(0).getToolTimeoutSec()).isEqualTo(120);
    assertThat(spec.getDocumentation()).hasSize(2);
    assertThat(spec.getBuildRequest().getId()).isEqualTo("1");
    assertThat(ExampleManifests.json(spec)).doesNotContain("change-me", "ghp_replace_me");
  }

  @Test
  void firstExampleStillReads() throws IOException {
    assertThat(environmentIn("environment.yaml").getSpec().getRuntimes())
        .containsEntry("python", "3.12");
  }

  private static Environment environmentIn(String file) throws IOException {
    return ExampleManifests.first(file, "Environment", Environment.class);
  }
}
