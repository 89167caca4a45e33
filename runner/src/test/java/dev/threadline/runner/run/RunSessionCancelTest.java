package dev.threadline.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventReader;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.events.RunnerEventWriter;
import dev.threadline.models.ModelProviders;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What SIGTERM does, through the shutdown hook's {@link RunSession#cancel()}. */
class RunSessionCancelTest {

  @TempDir Path workspace;

  @Test
  void cancellingStopsTheRunningCommandAndEndsWithFailedCancelled() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSession session =
        new RunSession(
            RunInputReader.parse(RunHarness.scriptedRun("Run `sleep 30` and `echo never`")),
            workspace,
            Map.of(),
            ModelProviders::create,
            new RunEvents(
                new RunnerEventWriter(new PrintStream(out, true, StandardCharsets.UTF_8))));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(session::run);
    waitForTheCommandToStart();

    long start = System.nanoTime();
    session.cancel();

    assertThat(exit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    List<RunnerEvent> events = RunnerEventReader.readAll(out.toString(StandardCharsets.UTF_8));
    assertThat(events.getLast().type()).isEqualTo(RunnerEventType.FAILED);
    assertThat(events.getLast().text("message")).isEqualTo("cancelled");
    assertThat(events).filteredOn(e -> e.type().terminal()).hasSize(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("never\\n");
    assertThat(sleeping()).isFalse();
  }

  private static void waitForTheCommandToStart() {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(RunSessionCancelTest::sleeping);
  }

  private static boolean sleeping() {
    return ProcessHandle.current()
        .descendants()
        .anyMatch(process -> process.info().commandLine().orElse("").contains("sleep 30"));
  }
}
