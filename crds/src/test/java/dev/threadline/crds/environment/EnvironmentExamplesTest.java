package dev.threadline.crds.environment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example manifests read as Environments, with every value kept out of the spec. */
class EnvironmentExamplesTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void gitOpsExampleReferencesItsSecretAndAsksForABuild() throws IOException {
    Environment environment = environmentIn(Path.of("../examples/environment-gitops.yaml"));
    EnvironmentSpec spec = environment.getSpec();

    assertThat(spec.getEnvironmentVariables()).singleElement().satisfies(variable -> {
      assertThat(variable.getKey()).isEqualTo("DATABASE_URL");
      assertThat(variable.getValueFrom().getSecretKeyRef().getName()).isEqualTo("data-team-credentials");
    });
    assertThat(spec.getSecrets().get(0).getValueFrom().getSecretKeyRef().getKey()).isEqualTo("github-token");
    assertThat(spec.getMcpServers()).extracting(McpServer::getName).containsExactly("search", "files");
    assertThat(spec.getMcpServers().get(0).getStartupTimeoutSec()).isEqualTo(McpServer.DEFAULT_STARTUP_TIMEOUT_SEC);
    assertThat(spec.getMcpServers().get(0).getToolTimeoutSec()).isEqualTo(120);
    assertThat(spec.getDocumentation()).hasSize(2);
    assertThat(spec.getBuildRequest().getId()).isEqualTo("1");
    assertThat(serialization.asJson(spec)).doesNotContain("change-me", "ghp_replace_me");
  }

  @Test
  void firstExampleStillReads() throws IOException {
    assertThat(environmentIn(Path.of("../examples/environment.yaml")).getSpec().getRuntimes())
        .containsEntry("python", "3.12");
  }

  private Environment environmentIn(Path manifest) throws IOException {
    try (InputStream in = Files.newInputStream(manifest)) {
      Object parsed = serialization.unmarshal(in);
      List<?> objects = parsed instanceof List<?> list ? list : List.of(parsed);
      // Read as generic resources (the model is not registered with the serializer), then converted.
      return objects.stream().map(HasMetadata.class::cast).filter(o -> "Environment".equals(o.getKind()))
          .map(o -> serialization.convertValue(o, Environment.class)).findFirst()
          .orElseThrow(() -> new AssertionError("no Environment in " + manifest + ": "
              + objects.stream().map(o -> ((HasMetadata) o).getKind()).toList()));
    }
  }
}
