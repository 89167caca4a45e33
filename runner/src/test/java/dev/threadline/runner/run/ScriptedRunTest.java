package dev.threadline.runner.run;

import static dev.threadline.core.events.RunnerEventType.FILE_CHANGE;
import static dev.threadline.core.events.RunnerEventType.MESSAGE;
import static dev.threadline.core.events.RunnerEventType.PLANNING;
import static dev.threadline.core.events.RunnerEventType.RESULT;
import static dev.threadline.core.events.RunnerEventType.STARTED;
import static dev.threadline.core.events.RunnerEventType.TOOL_CALL;
import static dev.threadline.core.events.RunnerEventType.USAGE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole run, end to end, with the offline scripted model running backticked commands. */
class ScriptedRunTest {

  @TempDir Path dir;

  @Test
  void runsTheTasksCommandsAndReportsEveryStepThenTheResult() {
    RunHarness.Output run =
        new RunHarness(dir).run(RunHarness.scriptedRun("Run `echo hello > a.txt` and `cat a.txt`"));

    assertThat(run.exitCode()).isZero();
    // Only protocol lines on stdout, numbered 1, 2, 3...
    assertThat(run.stdout().lines().count()).isEqualTo(run.events().size());
    assertThat(run.events())
        .extracting(RunnerEvent::seq)
        .containsExactlyElementsOf(
            java.util.stream.LongStream.rangeClosed(1, run.events().size()).boxed().toList());
    // Each model call is followed by a usage event; reasoning lines accompany tool calls.
    Set<RunnerEventType> named = Set.of(STARTED, PLANNING, TOOL_CALL, MESSAGE, FILE_CHANGE, RESULT);
    assertThat(run.types().stream().filter(named::contains).toList())
        .containsExactly(STARTED, PLANNING, TOOL_CALL, TOOL_CALL, MESSAGE, FILE_CHANGE, RESULT);
    assertThat(run.types()).containsSubsequence(MESSAGE, USAGE, FILE_CHANGE, RESULT);
    assertThat(run.ofType(USAGE)).hasSize(3);

    assertThat(run.events().getFirst().text("run_id")).isEqualTo("run_test");
    assertThat(run.ofType(PLANNING).getFirst().text("text"))
        .isEqualTo(
            "I will run 2 commands in the workspace, in order: `echo hello > a.txt`, then `cat"
                + " a.txt`, and report what they printed.");
    JsonNode first = run.ofType(TOOL_CALL).get(0).data();
    JsonNode second = run.ofType(TOOL_CALL).get(1).data();
    assertThat(first.path("id").asText()).isEqualTo("tool_1");
    assertThat(first.path("status").asText()).isEqualTo("completed");
    assertThat(first.path("tool").path("type").asText()).isEqualTo("command_execution");
    assertThat(first.path("tool").path("command").asText()).isEqualTo("echo hello > a.txt");
    assertThat(first.path("tool").path("exit_code").asInt()).isZero();
    assertThat(second.path("tool").path("command").asText()).isEqualTo("cat a.txt");
    assertThat(second.path("tool").path("output").asText()).isEqualTo("hello\n");

    assertThat(run.ofType(FILE_CHANGE).getFirst().data().toString())
        .isEqualTo("{\"path\":\"a.txt\",\"change\":\"create\",\"additions\":1,\"deletions\":0}");
    JsonNode result = run.last().data();
    assertThat(result.path("response").asText())
        .isEqualTo(run.ofType(MESSAGE).getFirst().text("text"))
        .contains("All 2 commands succeeded.");
    assertThat(result.path("actions"))
        .extracting(JsonNode::asText)
        .containsExactly("ran `echo hello > a.txt` (exit 0)", "ran `cat a.txt` (exit 0)");
    assertThat(result.path("diffs").toString())
        .isEqualTo("[{\"path\":\"a.txt\",\"type\":\"create\",\"content\":\"hello\\n\"}]");
    assertThat(result.path("usage").path("input_tokens").asLong())
        .isEqualTo(run.ofType(USAGE).getLast().number("input_tokens"))
        .isPositive();
  }

  @Test
  void aFollowUpInTheSameWorkspaceSeesTheFileAndReportsAModification() throws Exception {
    RunHarness harness = new RunHarness(dir);
    harness.run(RunHarness.scriptedRun("Run `printf 'one\\ntwo\\n' > a.txt`"));

    RunHarness.Output second =
        harness.run(RunHarness.scriptedRun("Run `printf 'one\\nTWO\\nthree\\n' > a.txt`"));

    assertThat(second.exitCode()).isZero();
    assertThat(Files.readString(harness.workspace().resolve("a.txt")))
        .isEqualTo("one\nTWO\nthree\n");
    assertThat(second.ofType(FILE_CHANGE).getFirst().data().toString())
        .isEqualTo("{\"path\":\"a.txt\",\"change\":\"modify\",\"additions\":2,\"deletions\":1}");
    assertThat(second.last().data().path("diffs").toString())
        .isEqualTo("[{\"path\":\"a.txt\",\"type\":\"modify\",\"additions\":2,\"deletions\":1}]");
  }

  @Test
  void placesAttachmentsAndSaysSoInASetupEvent() throws Exception {
    Path data = Files.writeString(dir.resolve("data.csv"), "a,b\n1,2\n");
    String runJson =
        """
        {"runId":"run_att","message":"Run `wc -l attachments/data.csv`",
         "attachments":[{"name":"data.csv","mediaType":"text/csv","path":%s}]}
        """
            .formatted(RunHarness.quote(data.toString()));

    RunHarness.Output run = new RunHarness(dir).run(runJson);

    assertThat(run.types().subList(0, 3)).containsExactly(STARTED, RunnerEventType.SETUP, PLANNING);
    assertThat(run.ofType(RunnerEventType.SETUP).getFirst().text("text"))
        .isEqualTo("Placed 1 attachment in attachments/: data.csv");
    assertThat(run.ofType(TOOL_CALL).getFirst().data().path("tool").path("output").asText())
        .isEqualTo("2 attachments/data.csv\n");
    // The attachment is input, not the agent's work: it is not a diff.
    assertThat(run.last().data().path("diffs")).isEmpty();
    assertThat(List.of(run.exitCode())).containsExactly(0);
  }
}
