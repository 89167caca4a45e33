package dev.threadline.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
        .startsWith("usage: runner <aot-training|serve|version>");
  }
}
