package dev.threadline.core.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ThreadState;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadTotalsTest {
  @Test
  void noRunsIsAnActiveEmptyThread() {
    ThreadTotals totals = ThreadTotals.of(List.of());
    assertThat(totals.state()).isEqualTo(ThreadState.ACTIVE);
    assertThat(totals.messageCount()).isZero();
    assertThat(totals.activeRun()).isNull();
  }

  @Test
  void sumsEveryRunAndTakesTheStateOfTheLatest() {
    ThreadTotals totals =
        ThreadTotals.of(
            List.of(
                run(2, "again", "failed", null, 5, 0, 0.0),
                run(1, "hello", "completed", "hi!", 10, 20, 0.25),
                run(3, "more", "running", null, 0, 0, 0.0)));
    assertThat(totals.messageCount()).isEqualTo(4);
    assertThat(totals.tokens().input()).isEqualTo(15);
    assertThat(totals.tokens().output()).isEqualTo(20);
    assertThat(totals.totalCost()).isEqualTo(0.25);
    assertThat(totals.state()).isEqualTo(ThreadState.RUNNING);
    assertThat(totals.activeRun()).isEqualTo("thread-t-3");
  }

  @Test
  void runsThatLeftTheApiStillCountOnceAndInOrder() {
    Run first = run(1, "hello", "completed", "hi!", 10, 20, 0.25);
    Run second = run(2, "again", "failed", null, 5, 0, 0.1);
    ThreadTotals before = ThreadTotals.of(List.of(first, second));

    ArchivedRuns archived = ThreadTotals.archive(null, first);
    // Counted in archived, still live for a moment (deleted next): not counted twice.
    ThreadTotals leaving = ThreadTotals.of(archived, List.of(first, second));
    ThreadTotals gone = ThreadTotals.of(archived, List.of(second));
    ArchivedRuns both = ThreadTotals.archive(archived, second);
    ThreadTotals allGone = ThreadTotals.of(both, List.of());

    for (ThreadTotals totals : List.of(leaving, gone, allGone)) {
      assertThat(totals.messageCount()).isEqualTo(before.messageCount());
      assertThat(totals.tokens()).isEqualTo(before.tokens());
      assertThat(totals.totalCost()).isEqualTo(before.totalCost());
      assertThat(totals.state()).isEqualTo(ThreadState.FAILED);
    }
    assertThat(both.getRuns()).isEqualTo(2);
    assertThat(both.getLastSequence()).isEqualTo(2);
    assertThat(allGone.activeRun()).isNull();
  }

  @Test
  void pendingRunWithoutStatusCountsItsMessageAndIsRunning() {
    ThreadTotals totals = ThreadTotals.of(List.of(run(1, "hello", null, null, 0, 0, 0)));
    assertThat(totals.messageCount()).isEqualTo(1);
    assertThat(totals.state()).isEqualTo(ThreadState.RUNNING);
  }

  @Test
  void centsDoNotDriftWhenSummed() {
    ThreadTotals totals =
        ThreadTotals.of(
            List.of(
                run(1, "a", "completed", "x", 1, 1, 0.1),
                run(2, "b", "completed", "y", 1, 1, 0.2)));
    assertThat(totals.totalCost()).isEqualTo(0.3);
    assertThat(totals.state()).isEqualTo(ThreadState.COMPLETED);
  }

  @Test
  void onlyAChangeOfWhatARunAddsChangesTheTotals() {
    Run answered = run(1, "hello", "completed", "hi!", 10, 20, 0.25);
    Run marked = run(1, "hello", "completed", "hi!", 10, 20, 0.25);
    marked.getStatus().setUsageRecorded(true);
    marked.getStatus().setWebhooksQueued(true);
    assertThat(ThreadTotals.changedBy(answered, marked)).isFalse();
    assertThat(ThreadTotals.changedBy(run(1, "hello", null, null, 0, 0, 0), answered)).isTrue();
    assertThat(
            ThreadTotals.changedBy(
                run(1, "hello", "running", null, 10, 20, 0.25),
                run(1, "hello", "running", null, 11, 20, 0.25)))
        .as("usage")
        .isTrue();
    assertThat(
            ThreadTotals.changedBy(
                run(1, "hello", "running", null, 0, 0, 0),
                run(1, "hello", "failed", null, 0, 0, 0)))
        .as("phase")
        .isTrue();
  }

  private static Run run(
      long sequence,
      String message,
      String phase,
      String response,
      long in,
      long out,
      double cost) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder().withName("thread-t-" + sequence).withNamespace("ns").build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-t");
    spec.setSequence(sequence);
    spec.setMessage(message);
    run.setSpec(spec);
    if (phase != null) {
      RunStatus status = new RunStatus();
      status.setPhase(phase);
      status.setResponse(response);
      TokenCounts usage = new TokenCounts();
      usage.setInputTokens(in);
      usage.setOutputTokens(out);
      usage.setCachedTokens(0L);
      status.setUsage(usage);
      status.setCost(cost);
      run.setStatus(status);
    }
    return run;
  }
}
