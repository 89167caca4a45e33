package dev.threadline.runner.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandToolTest {

  @TempDir Path workspace;

  private CommandTool tool(Duration timeout, int limit) {
    return new CommandTool(workspace, timeout, limit, Set.of("THREADLINE_MODEL_API_KEY"));
  }

  @Test
  void runsInTheWorkspaceWithStdoutAndStderrInterleaved() throws Exception {
    ToolResult result =
        tool(Duration.ofSeconds(10), 4096)
            .run(Map.of("command", "echo one; echo two >&2; echo three > made.txt; pwd"));

    assertThat(result.exitCode()).isZero();
    assertThat(result.succeeded()).isTrue();
    assertThat(result.output()).isEqualTo("one\ntwo\n" + workspace.toRealPath() + "\n");
    assertThat(workspace.resolve("made.txt")).hasContent("three");
    assertThat(new ObjectMapper().readTree(result.forModel()).path("exit_code").asInt()).isZero();
  }

  @Test
  void reportsTheExitCodeOfAFailingCommand() {
    ToolResult result =
        tool(Duration.ofSeconds(10), 4096).run(Map.of("command", "echo oops; exit 3"));

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.succeeded()).isFalse();
    assertThat(result.forModel()).isEqualTo("{\"exit_code\":3,\"output\":\"oops\\n\"}");
  }

  @Test
  void killsACommandAtItsTimeoutWithExitCode124() {
    long start = System.nanoTime();

    ToolResult result =
        tool(Duration.ofSeconds(1), 4096)
            .run(Map.of("command", "echo before; sleep 5; echo after"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    assertThat(result.exitCode()).isEqualTo(CommandTool.TIMEOUT_EXIT_CODE);
    assertThat(result.output())
        .startsWith("before\n")
        .contains("timed out after 1 s")
        .doesNotContain("after\n");
  }

  @Test
  void boundsTheOutputKeepingItsBeginningAndEnd() {
    ToolResult result = tool(Duration.ofSeconds(10), 100).run(Map.of("command", "seq 1 10000"));

    assertThat(result.output())
        .startsWith("1\n2\n")
        .endsWith("9999\n10000\n")
        .contains("output truncated");
    assertThat(result.output().length()).isLessThan(200);
  }

  @Test
  void hidesTheNamedVariablesFromCommands() {
    // The test JVM has no model key to hide; HOME stands in for it: a hidden name is removed when
    // present.
    ToolResult result =
        new CommandTool(workspace, Duration.ofSeconds(10), 4096, Set.of("HOME"))
            .run(Map.of("command", "echo \"home=${HOME:-unset}\""));

    assertThat(result.output()).isEqualTo("home=unset\n");
  }

  @Test
  void hasNoStdin() {
    ToolResult result = tool(Duration.ofSeconds(5), 4096).run(Map.of("command", "cat; echo done"));

    assertThat(result.output()).isEqualTo("done\n");
  }

  @Test
  void aMissingCommandArgumentIsAToolError() {
    ToolResult result = ToolRegistry.execute(tool(Duration.ofSeconds(5), 4096), "{\"cmd\":\"ls\"}");

    assertThat(result.succeeded()).isFalse();
    assertThat(result.forModel()).isEqualTo("error: missing argument 'command'");
    assertThat(Files.exists(workspace)).isTrue();
  }

  @Test
  void aCancelThatComesWhileTheCommandStartsStillStopsIt() throws Exception {
    // The cancel races the process's start: it must stop the command whichever comes first.
    for (int attempt = 0; attempt < 20; attempt++) {
      CommandTool tool = tool(Duration.ofSeconds(60), 4096);
      CompletableFuture<ToolResult> result =
          CompletableFuture.supplyAsync(() -> tool.run(Map.of("command", "sleep 30")));
      tool.cancelAll();

      ToolResult stopped = result.get(10, TimeUnit.SECONDS);

      assertThat(stopped.succeeded()).as("attempt %d", attempt).isFalse();
      assertThat(stopped.forModel()).contains("cancelled");
    }
  }
}
