package dev.threadline.operator.thread;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import org.junit.jupiter.api.Test;

class ThreadReconcilerAtStartTest {
  private final ThreadReconciler.ToReconcileAtStart filter =
      new ThreadReconciler.ToReconcileAtStart();

  @Test
  void aThreadNeverRolledUpIsReconciledAtStart() {
    assertThat(filter.accept(thread(1L, null))).isTrue();
    assertThat(filter.accept(thread(1L, new ThreadStatus()))).isTrue();
  }

  @Test
  void aThreadWhoseSpecChangedSinceItsRollupIsReconciledAtStart() {
    assertThat(filter.accept(thread(2L, rolledUpAt(1L, 2L, null)))).isTrue();
  }

  @Test
  void aThreadRolledUpForItsSpecWithALiveRunWaitsForItsRuns() {
    assertThat(filter.accept(thread(3L, rolledUpAt(3L, 2L, null)))).isFalse();
    assertThat(filter.accept(thread(3L, rolledUpAt(3L, 5L, archived(4L))))).isFalse();
  }

  @Test
  void aThreadWithNoLiveRunIsReconciledAtStartToBeArchivedWhenIdle() {
    // Its archive timer lives in this process only: a restart must set it again.
    assertThat(filter.accept(thread(3L, rolledUpAt(3L, 0L, null)))).isTrue();
    assertThat(filter.accept(thread(3L, rolledUpAt(3L, null, null)))).isTrue();
    assertThat(filter.accept(thread(3L, rolledUpAt(3L, 4L, archived(4L))))).isTrue();
  }

  private static ArchivedRuns archived(long messages) {
    ArchivedRuns archived = new ArchivedRuns();
    archived.setMessages(messages);
    return archived;
  }

  private static ThreadStatus rolledUpAt(long generation, Long messages, ArchivedRuns archived) {
    ThreadStatus status = new ThreadStatus();
    status.setObservedGeneration(generation);
    status.setMessageCount(messages);
    status.setArchived(archived);
    return status;
  }

  private static ConversationThread thread(Long generation, ThreadStatus status) {
    ConversationThread thread = new ConversationThread();
    thread.getMetadata().setName("thread-a");
    thread.getMetadata().setGeneration(generation);
    thread.setStatus(status);
    return thread;
  }
}
