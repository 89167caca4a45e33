package dev.threadline.core.batching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyedGroupCommitsTest {
  @Test
  void aKeyWithoutCallersHoldsNoGroup() {
    KeyedGroupCommits<String, Integer, String> commits = new KeyedGroupCommits<>(8);

    String answer =
        commits.submit("2026-11", 1, batch -> batch.forEach(r -> r.succeed("one " + r.input())));

    assertThat(answer).isEqualTo("one 1");
    assertThat(commits.groups()).isZero();
  }

  @Test
  void callersOfOneKeyShareABatchWhileCallersOfAnotherKeyWriteApart() throws Exception {
    KeyedGroupCommits<String, Integer, Integer> commits = new KeyedGroupCommits<>(64);
    CountDownLatch firstWriting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger batches = new AtomicInteger();
    GroupCommit.Writer<Integer, Integer> writer =
        batch -> {
          if (batches.incrementAndGet() == 1) {
            firstWriting.countDown();
            await(release);
          }
          batch.forEach(request -> request.succeed(batch.size()));
        };
    List<Integer> sizes = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread first = Thread.ofPlatform().start(() -> sizes.add(commits.submit("a", 0, writer)));
    firstWriting.await();
    List<Thread> waiting = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      int input = i;
      waiting.add(Thread.ofPlatform().start(() -> sizes.add(commits.submit("a", input, writer))));
    }
    // Another key is not held up by the batch that holds key a's lock.
    assertThat(commits.submit("b", 9, batch -> batch.forEach(r -> r.succeed(-1)))).isEqualTo(-1);
    while (commits.groups() != 1 || waitingOn(waiting)) {
      Thread.onSpinWait();
    }
    release.countDown();
    first.join();
    for (Thread thread : waiting) {
      thread.join();
    }

    assertThat(sizes).containsExactlyInAnyOrder(1, 5, 5, 5, 5, 5);
    assertThat(batches.get()).isEqualTo(2);
    assertThat(commits.groups()).isZero();
  }

  private static boolean waitingOn(List<Thread> threads) {
    return threads.stream().anyMatch(t -> t.getState() != Thread.State.WAITING);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
