package dev.threadline.runner.run;

import static dev.threadline.core.events.RunnerEventType.ERROR;
import static dev.threadline.core.events.RunnerEventType.FAILED;
import static dev.threadline.core.events.RunnerEventType.FILE_CHANGE;
import static dev.threadline.core.events.RunnerEventType.REASONING;
import static dev.threadline.core.events.RunnerEventType.RESULT;
import static dev.threadline.core.events.RunnerEventType.TOOL_CALL;
import static dev.threadline.core.events.RunnerEventType.USAGE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.Role;
import dev.threadline.models.ToolDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent loop against a scripted fake model: errors, limits and file tools. */
class AgentLoopTest {

  private static final String KEY = "sk-test-0123456789abcdef";
  private static final String RUN =
      """
      {"runId":"run_fake","threadId":"thread_fake","model":{"provider":"openai","model":"fake-1","baseUrl":"http://127.0.0.1:9/v1"},
       "instructions":"Be brief.","documentation":[{"title":"Style","content":"Use tabs."}],
       "history":[{"role":"user","content":"earlier"},{"role":"assistant","content":"earlier answer"}],
       "message":"Fix notes.txt","limits":{"maxTurns":3,"commandTimeoutSec":5,"outputLimitBytes":4096,"maxOutputTokens":500}}
      """;

  @TempDir Path dir;
  private final FakeModel model = new FakeModel();

  private RunHarness harness() {
    return new RunHarness(dir, Map.of("THREADLINE_MODEL_API_KEY", KEY), model::create);
  }

  @Test
  void editsAFileThroughTheModelsToolCallAndReportsTheChange() throws Exception {
    RunHarness harness = harness();
    Files.createDirectories(harness.workspace());
    Files.writeString(harness.workspace().resolve("notes.txt"), "title\nteh end\n");
    model
        .then(() ->
            FakeModel.callReply(
                "Fixing the typo.",
                "edit_file",
                Map.of("path", "notes.txt", "old_text", "teh", "new_text", "the")))
        .thenSay("Fixed the typo in notes.txt.");

    RunHarness.Output run = harness.run(RUN);

    assertThat(run.exitCode()).isZero();
    assertThat(harness.workspace().resolve("notes.txt")).hasContent("title\nthe end");
    JsonNode call = run.ofType(TOOL_CALL).getFirst().data();
    assertThat(call.path("status").asText()).isEqualTo("completed");
    assertThat(call.path("tool").path("type").asText()).isEqualTo("file_edit");
    assertThat(call.path("tool").path("name").asText()).isEqualTo("edit_file");
    assertThat(call.path("tool").path("path").asText()).isEqualTo("notes.txt");
    assertThat(run.ofType(REASONING).getFirst().text("text")).isEqualTo("Fixing the typo.");
    assertThat(run.ofType(FILE_CHANGE).getFirst().data().toString())
        .isEqualTo(
            "{\"path\":\"notes.txt\",\"change\":\"modify\",\"additions\":1,\"deletions\":1}");
    JsonNode result = run.last().data();
    assertThat(result.path("actions").get(0).asText()).isEqualTo("edited notes.txt");
    assertThat(result.path("usage").toString())
        .isEqualTo("{\"input_tokens\":200,\"output_tokens\":20,\"cached_tokens\":80}");
    assertThat(run.ofType(USAGE).getFirst().number("input_tokens")).isEqualTo(100);

    // The model was configured from run.json with the key from the environment...
    assertThat(model.settings.provider()).isEqualTo("openai");
    assertThat(model.settings.model()).isEqualTo("fake-1");
    assertThat(model.settings.baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
    assertThat(model.settings.apiKey()).isEqualTo(KEY);
    assertThat(model.closed).isTrue();
    // ...saw the instructions, documentation, history and tools, then read the tool's result.
    var firstRequest = model.requests.getFirst();
    assertThat(firstRequest.instructions())
        .contains("Be brief.")
        .contains("## Documentation: Style\nUse tabs.");
    assertThat(firstRequest.messages())
        .extracting(ChatMessage::content)
        .containsExactly("earlier", "earlier answer", "Fix notes.txt");
    assertThat(firstRequest.tools())
        .extracting(ToolDefinition::name)
        .containsExactly("run_command", "read_file", "write_file", "edit_file", "list_files");
    assertThat(firstRequest.maxOutputTokens()).isEqualTo(500);
    ChatMessage toolResult = model.requests.get(1).messages().getLast();
    assertThat(toolResult.role()).isEqualTo(Role.TOOL);
    assertThat(toolResult.content()).isEqualTo("edited notes.txt");
  }

  @Test
  void aModelErrorFailsTheRunWithoutRevealingTheKey() {
    model.then(() -> {
      throw new ModelException(
          "openai", ModelErrorCode.AUTH, 401, "Incorrect API key provided: " + KEY, null);
    });

    RunHarness.Output run = harness().run(RUN);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.last().type()).isEqualTo(FAILED);
    assertThat(run.last().text("code")).isEqualTo("execution_failed");
    assertThat(run.last().text("message"))
        .isEqualTo("openai model call failed (auth, HTTP 401): Incorrect API key provided: ****");
    assertThat(run.stdout() + run.stderr()).doesNotContain(KEY);
  }

  @Test
  void stopsAtTheTurnLimit() {
    model.always(() -> FakeModel.callReply("", "list_files", Map.of()));

    RunHarness.Output run = harness().run(RUN);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(model.requests).hasSize(3);
    assertThat(run.ofType(TOOL_CALL)).hasSize(3);
    assertThat(run.ofType(RESULT)).isEmpty();
    assertThat(run.last().text("message"))
        .isEqualTo("turn limit reached: the model was still calling tools after 3 turns");
  }

  @Test
  void anUnknownToolIsAnErrorEventAndAnErrorTheModelReads() {
    model.thenCall("teleport", Map.of("to", "mars")).thenSay("I cannot teleport.");

    RunHarness.Output run = harness().run(RUN);

    assertThat(run.exitCode()).isZero();
    assertThat(run.ofType(ERROR).getFirst().text("message"))
        .isEqualTo("the model called an unknown tool 'teleport'");
    assertThat(model.requests.get(1).messages().getLast().content())
        .startsWith("error: unknown tool 'teleport'; the tools are run_command, read_file");
    assertThat(run.last().text("response")).isEqualTo("I cannot teleport.");
  }

  @Test
  void aProviderThatNeedsAKeyFailsClearlyWithoutOne() {
    RunHarness.Output run =
        new RunHarness(dir, Map.of(), dev.threadline.models.ModelProviders::create).run(RUN);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.last().text("message")).startsWith("model provider openai needs an API key");
  }
}
