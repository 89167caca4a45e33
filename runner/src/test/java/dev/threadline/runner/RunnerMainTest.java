package dev.threadline.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerMainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final RunnerMain runner =
      new RunnerMain(
          new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));

  @Test
  void printsItsVersion() {
    assertThat(runner.execute(new String[] {"version"})).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("threadline-runner 0.1.0\n");
  }

  @Test
  void unknownCommandGivesUsageOnStderrAndExitTwo() {
    assertThat(runner.execute(new String[] {"fly"})).isEqualTo(2);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("usage: runner <run|serve|version>");
  }

  @Test
  void dispatchesRunAndRefusesAMalformedRunJsonWithExitTwoNamingTheField(@TempDir Path dir)
      throws Exception {
    Path input =
        Files.writeString(
            dir.resolve("run.json"),
            "{\"runId\":\"run_1\",\"message\":\"hi\",\"mcpServers\":[{\"type\":\"http\",\"name\":\"web\"}]}");

    int exit =
        runner.execute(
            new String[] {"run", "--input", input.toString(), "--workspace", dir.toString()});

    assertThat(exit).isEqualTo(2);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("runner run: run.json: mcpServers[0].url: is required\n");
  }

  @Test
  void runWithoutItsOptionsGivesUsage() {
    assertThat(runner.execute(new String[] {"run", "--input"})).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "runner run: --input needs a value\n"
                + "usage: runner run --input <run.json> --workspace <dir>\n");
  }
}
