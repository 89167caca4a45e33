package dev.threadline.operator.thread;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import org.junit.jupiter.api.Test;

class ThreadReconcilerNotRolledUpTest {
  private final ThreadReconciler.NotRolledUp filter = new ThreadReconciler.NotRolledUp();

  @Test
  void aThreadNeverRolledUpIsReconciledAtStart() {
    assertThat(filter.accept(thread(1L, null))).isTrue();
    assertThat(filter.accept(thread(1L, new ThreadStatus()))).isTrue();
  }

  @Test
  void aThreadWhoseSpecChangedSinceItsRollupIsReconciledAtStart() {
    assertThat(filter.accept(thread(2L, rolledUpAt(1L)))).isTrue();
  }

  @Test
  void aThreadRolledUpForItsSpecWaitsForItsRuns() {
    assertThat(filter.accept(thread(3L, rolledUpAt(3L)))).isFalse();
  }

  private static ThreadStatus rolledUpAt(long generation) {
    ThreadStatus status = new ThreadStatus();
    status.setObservedGeneration(generation);
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
