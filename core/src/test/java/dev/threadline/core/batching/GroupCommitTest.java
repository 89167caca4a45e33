package dev.threadline.core.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class GroupCommitTest {
  @Test
  void callersWaitingTogetherAreWrittenInOneBatchAndEachGetsItsOwnAnswer() throws Exception {
    GroupCommit<Integer, String> commits = new GroupCommit<>(64);
    CountDownLatch firstBatchEntered = new CountDownLatch(1);
    CountDownLatch releaseFirstBatch = new CountDownLatch(1);
    List<Integer> batchSizes = new ArrayList<>();
    GroupCommit.Writer<Integer, String> writer =
        batch -> {
          batchSizes.add(batch.size());
          if (batchSizes.size() == 1) {
            firstBatchEntered.countDown();
            await(releaseFirstBatch);
          }
          batch.forEach(request -> request.succeed("wrote " + request.input()));
        };
    List<String> answers = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread first = Thread.ofPlatform().start(() -> answers.add(commits.submit(0, writer)));
    firstBatchEntered.await();
    List<Thread> others = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      int input = i;
      others.add(Thread.ofPlatform().start(() -> answers.add(commits.submit(input, writer))));
    }
    while (commits.waiting() < 10) {
      Thread.onSpinWait(); // the ten queue behind the batch that holds the lock
    }
    releaseFirstBatch.countDown();
    first.join();
    for (Thread other : others) {
      other.join();
    }

    assertThat(answers).hasSize(11).contains("wrote 0", "wrote 7", "wrote 10");
    assertThat(batchSizes.getFirst()).isEqualTo(1);
    assertThat(batchSizes).containsExactly(1, 10);
    assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(11);
  }

  @Test
  void aRequestFailedAloneFailsItsCallerOnlyAndAThrowingWriterFailsTheBatch() {
    GroupCommit<Integer, String> commits = new GroupCommit<>(8);
    GroupCommit.Writer<Integer, String> writer =
        batch ->
            batch.forEach(request -> {
              if (request.input() < 0) {
                request.fail(new IllegalArgumentException("negative"));
              } else {
                request.succeed("ok");
              }
            });

    assertThat(commits.submit(1, writer)).isEqualTo("ok");
    assertThatThrownBy(() -> commits.submit(-1, writer)).hasMessage("negative");
    assertThatThrownBy(() ->
            commits.submit(
                2,
                batch -> {
                  throw new IllegalStateException("disk full");
                }))
        .hasMessage("disk full");
    assertThatThrownBy(() -> commits.submit(3, batch -> {})).hasMessageContaining("unsettled");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
