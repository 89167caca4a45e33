package dev.threadline.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.runner.run.RunInput.McpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunInputReaderTest {

  @Test
  void readsTheDocumentedExample() {
    RunInput input =
        RunInputReader.parse(
            """
            {"runId":"run_1","threadId":"thread_1","model":{"provider":"scripted","model":"scripted-1","baseUrl":null},
             "instructions":"Be careful.","history":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}],
             "message":"the task","attachments":[{"name":"data.csv","mediaType":"text/csv","path":"/threadline/input/attachments/data.csv"}],
             "documentation":[{"title":"API","content":"GET /x"}],
             "mcpServers":[{"type":"stdio","name":"fs","command":"mcp-fs","args":["--root","."],"env":{"K":"$ENV_NAME"},"enabled":true,"startupTimeoutSec":30,"toolTimeoutSec":60},
                           {"type":"http","name":"web","url":"http://web:8080/mcp","bearerTokenEnv":"MCP_WEB_TOKEN","enabled":true}],
             "limits":{"maxTurns":30,"commandTimeoutSec":300,"outputLimitBytes":65536,"maxOutputTokens":4096},
             "somethingNewer":true}
            """);

    assertThat(input.runId()).isEqualTo("run_1");
    assertThat(input.model()).isEqualTo(new RunInput.ModelChoice("scripted", "scripted-1", null));
    assertThat(input.history()).hasSize(2);
    assertThat(input.attachments().getFirst().path())
        .isEqualTo("/threadline/input/attachments/data.csv");
    assertThat(input.mcpServers())
        .containsExactly(
            new McpServer(
                "stdio",
                "fs",
                "mcp-fs",
                java.util.List.of("--root", "."),
                java.util.Map.of("K", "$ENV_NAME"),
                null,
                null,
                true,
                30,
                60),
            new McpServer(
                "http",
                "web",
                null,
                java.util.List.of(),
                java.util.Map.of(),
                "http://web:8080/mcp",
                "MCP_WEB_TOKEN",
                true,
                30,
                60));
    assertThat(input.limits()).isEqualTo(RunInput.Limits.DEFAULT);
  }

  @Test
  void relativeAttachmentPathsAreRelativeToTheFolderOfRunJson(@TempDir Path input)
      throws IOException {
    Path runJson = input.resolve("run.json");
    Files.writeString(
        runJson,
        """
        {"runId":"run_1","message":"go","attachments":[
          {"name":"data.csv","path":"attachments/data.csv"},{"name":"abs.txt","path":"/elsewhere/abs.txt"}]}
        """);

    RunInput read = RunInputReader.read(runJson);

    assertThat(read.attachments().get(0).path())
        .isEqualTo(input.resolve("attachments/data.csv").toString());
    assertThat(read.attachments().get(1).path()).isEqualTo("/elsewhere/abs.txt");
  }

  @Test
  void fillsDefaultsForAMinimalInput() {
    RunInput input = RunInputReader.parse("{\"runId\":\"run_1\",\"message\":\"go\"}");

    assertThat(input.instructions()).isEmpty();
    assertThat(input.model()).isEqualTo(new RunInput.ModelChoice(null, null, null));
    assertThat(input.limits()).isEqualTo(RunInput.Limits.DEFAULT);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[]| (document): must be a JSON object",
        "{\"runId\":\"r\"}| message: is required",
        "{\"runId\":\"r\",\"message\":\"m\",\"limits\":{\"maxTurns\":0}}| limits.maxTurns: must be"
            + " a positive whole number",
        "{\"runId\":\"r\",\"message\":\"m\",\"history\":[{\"role\":\"system\",\"content\":\"x\"}]}|"
            + " history[0].role: must be 'user' or 'assistant', was 'system'",
        "{\"runId\":\"r\",\"message\":\"m\",\"attachments\":[{\"name\":\"../x\",\"path\":\"/p\"}]}|"
            + " attachments[0].name: must be a plain file name, was '../x'",
        "{\"runId\":\"r\",\"message\":\"m\",\"mcpServers\":[{\"type\":\"grpc\",\"name\":\"x\"}]}|"
            + " mcpServers[0].type: must be 'stdio' or 'http', was 'grpc'",
        "{\"runId\":\"r\",\"message\":\"m\",\"mcpServers\":[{\"type\":\"stdio\",\"name\":\"a"
            + " b\",\"command\":\"c\"}]}| mcpServers[0].name: must be 1-32 letters, digits, '_' or"
            + " '-', was 'a b'",
        "{\"runId\":\"r\",\"message\":\"m\",\"mcpServers\":[{\"type\":\"stdio\",\"name\":\"a\",\"command\":\"c\",\"env\":{\"K\":1}}]}|"
            + " mcpServers[0].env.K: must be a string",
        "{\"runId\":\"r\",\"message\":\"m\",\"mcpServers\":[{\"type\":\"stdio\",\"name\":\"a\",\"command\":\"c\"},{\"type\":\"stdio\",\"name\":\"a\",\"command\":\"d\"}]}|"
            + " mcpServers[1].name: 'a' is used by an earlier server"
      })
  void namesTheFieldOfEveryProblem(String json, String message) {
    assertThatThrownBy(() -> RunInputReader.parse(json))
        .isInstanceOf(InvalidRunInputException.class)
        .hasMessage("run.json: " + message);
  }
}
