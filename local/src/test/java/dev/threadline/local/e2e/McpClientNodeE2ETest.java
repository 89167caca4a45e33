package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client we did not write, the MCP TypeScript SDK ({@code @modelcontextprotocol/sdk} from npm,
 * installed by {@code .ci/setup} from {@code src/test/node}'s lock file), drives Threadline's MCP
 * server in local mode with alice's key: it lists the tools, runs a computer task (the scripted
 * model runs its backticked commands in a sandbox) to its end with progress, and reads its diff;
 * bob's key sees nothing of it, and bad calls fail in MCP's shapes.
 */
class McpClientNodeE2ETest {
  private static final Path SCRIPTS = Path.of("src", "test", "node").toAbsolutePath();

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void theMcpTypeScriptSdkRunsAComputerTaskAndReadsItsDiff() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(SCRIPTS.resolve("node_modules/@modelcontextprotocol/sdk")),
        "@modelcontextprotocol/sdk is not installed (run .ci/setup)");
    ProcessBuilder node =
        new ProcessBuilder(
                "node",
                "threadline-mcp.mjs",
                fixture.local().apiUrl(),
                LocalModeFixture.ALICE_KEY,
                LocalModeFixture.BOB_KEY)
            .directory(SCRIPTS.toFile());
    File errors = Files.createTempFile("mcp-client", ".err").toFile();
    node.redirectError(errors);
    Process process = node.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out + Files.readString(errors.toPath())).isZero();

    JsonNode seen = new ObjectMapper().readTree(out.strip());
    assertThat(seen.path("tools").toString())
        .isEqualTo(
            "[\"start_task\",\"send_message\",\"list_threads\",\"get_thread\",\"read_messages\","
                + "\"read_logs\",\"read_diffs\",\"cancel_run\"]");

    JsonNode task = seen.path("task");
    assertThat(task.path("isError").asBoolean()).as(seen.toString()).isFalse();
    assertThat(task.path("success").asBoolean()).as(seen.toString()).isTrue();
    assertThat(task.path("threadStatus").asText()).isEqualTo("completed");
    assertThat(task.path("response").asText()).contains("hello");

    // Progress while the run worked: counted up, one per event of the run's stream.
    List<Double> counts = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    seen.path("progress")
        .forEach(p -> {
          counts.add(p.path("progress").asDouble());
          messages.add(p.path("message").asText());
        });
    assertThat(counts).as(messages.toString()).isNotEmpty().isSorted().doesNotHaveDuplicates();
    assertThat(messages)
        .contains("computer.starting")
        .anyMatch(m -> m.startsWith("response.item.completed tool_call: echo hello > a.txt"))
        .anyMatch(m -> m.startsWith("response.completed"));

    assertThat(seen.path("diffs").toString())
        .as(seen.toString())
        .contains("\"path\":\"a.txt\"")
        .contains("hello");

    JsonNode other = seen.path("other");
    assertThat(other.path("thread").path("isError").asBoolean()).isTrue();
    assertThat(other.path("thread").path("status").asInt()).isEqualTo(404);
    assertThat(other.path("thread").path("error").asText()).isEqualTo("Not Found");
    assertThat(other.path("diffs").path("status").asInt()).isEqualTo(404);
    assertThat(other.path("listed").asInt()).isZero();

    JsonNode bad = seen.path("badCall");
    assertThat(bad.path("isError").asBoolean()).isTrue();
    assertThat(bad.path("status").asInt()).isEqualTo(400);
    assertThat(bad.path("message").asText()).isEqualTo("task is required");
    assertThat(seen.path("unknownTool").path("thrown").asBoolean()).isTrue();
    assertThat(seen.path("unknownTool").path("code").asInt()).isEqualTo(-32602);
  }
}
