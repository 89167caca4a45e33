package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/**
 * When the usage recorder may count from its cache: never before the cache has shown one of its own
 * marks in the namespace (an earlier process's marks may not be delivered yet), never from a copy
 * older than its own mark, and not after a mark whose write failed without an answer.
 */
class UsageMarksTest {
  private final UsageMarks marks = new UsageMarks();

  @Test
  void theCacheIsTrustedOnlyOnceItShowedOneOfThisProcesssMarks() {
    Run first = run("ns", "uid-1", false);
    assertThat(marks.mustReadFresh(first)).isTrue();
    marks.shown(run("ns", "uid-0", true)); // marked by an earlier process: proves nothing
    assertThat(marks.mustReadFresh(first)).isTrue();

    marks.marking(first);
    marks.shown(first); // an older copy, without the mark
    assertThat(marks.awaitingOwnMark(first)).isTrue();
    assertThat(marks.mustReadFresh(run("ns", "uid-2", false))).isTrue();

    marks.shown(run("ns", "uid-1", true));
    assertThat(marks.awaitingOwnMark(first)).isFalse();
    assertThat(marks.mustReadFresh(run("ns", "uid-2", false))).isFalse();
    assertThat(marks.mustReadFresh(run("other", "uid-3", false))).as("per namespace").isTrue();
  }

  @Test
  void aMarkThatFailedWithoutAnAnswerIsReadFreshOnce() {
    Run trusted = run("ns", "uid-1", false);
    marks.marking(trusted);
    marks.shown(run("ns", "uid-1", true));
    Run run = run("ns", "uid-2", false);
    marks.marking(run);
    marks.failed(run);
    assertThat(marks.awaitingOwnMark(run)).isFalse();
    assertThat(marks.mustReadFresh(run)).isTrue();
    assertThat(marks.mustReadFresh(run)).isFalse();
  }

  private static Run run(String namespace, String uid, boolean marked) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder().withNamespace(namespace).withName(uid).withUid(uid).build());
    RunStatus status = new RunStatus();
    status.setPhase("completed");
    status.setUsageRecorded(marked ? true : null);
    run.setStatus(status);
    return run;
  }
}
