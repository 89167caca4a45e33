package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A second Kubernetes client we did not write, {@code @kubernetes/client-node} from npm (installed
 * by {@code .ci/setup} from {@code src/test/node}'s lock file), drives an example Agent against the
 * local mode with the administrator's kubeconfig: server-side apply (create, then a changed field),
 * a watch until the operator's conditions describe each generation, and a status read.
 */
class ClientNodeE2ETest {
  private static final Path SCRIPTS = Path.of("src", "test", "node").toAbsolutePath();

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void clientNodeAppliesWatchesAndReadsTheStatusOfAnAgent() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(SCRIPTS.resolve("node_modules/@kubernetes/client-node")),
        "@kubernetes/client-node is not installed (run .ci/setup)");
    String manifest =
        Path.of("..", "examples", "agent.yaml").toAbsolutePath().normalize().toString();

    ProcessBuilder node =
        new ProcessBuilder("node", "threadline-kinds.mjs", manifest, "alice")
            .directory(SCRIPTS.toFile());
    node.environment().put("KUBECONFIG", fixture.local().kubeconfig().toString());
    File errors = Files.createTempFile("client-node", ".err").toFile();
    node.redirectError(errors);
    Process process = node.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out + Files.readString(errors.toPath())).isZero();

    JsonNode seen = new ObjectMapper().readTree(out.strip());
    assertThat(seen.path("created").asText()).isEqualTo("agent-reviewer");
    assertThat(seen.path("generations").toString()).isEqualTo("[1,2]");
    assertThat(seen.path("watchEvents").asInt()).isPositive();
    assertThat(seen.path("instructions").asText()).endsWith("(changed)");
    assertThat(seen.path("observedGeneration").asLong()).isEqualTo(2L);
    assertThat(seen.path("ready").asText()).isEqualTo("True");
    assertThat(seen.path("readyReason").asText()).isEqualTo("Valid");
    assertThat(seen.path("conditions").toString()).isEqualTo("[\"Ready\"]");
    // The API server's view of the same Agent agrees with what the client read.
    var viaRest = fixture.get(LocalModeFixture.ALICE_KEY, "/v1/agents/agent_reviewer");
    assertThat(viaRest.statusCode()).as(viaRest.body()).isEqualTo(200);
  }
}
