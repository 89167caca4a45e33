package dev.threadline.local.kubelet.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.local.kubelet.controllers.ReconcileQueue.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReconcileQueueTest {
  private static final ObjectKey KEY = new ObjectKey("user-1", "x");

  @Test
  void aReconcileThatKeepsFailingIsRetriedWithDoublingWaits() throws InterruptedException {
    List<Long> attempts = new CopyOnWriteArrayList<>();
    long start = System.nanoTime();
    try (ReconcileQueue queue =
        new ReconcileQueue(
            "test-queue",
            InstantSource.system(),
            key -> {
              attempts.add(System.nanoTime() - start);
              throw new IllegalStateException("the API refused it");
            })) {
      queue.enqueue(KEY);
      Thread.sleep(Duration.ofMillis(8500));
    }

    // At 0, 1, 3 and 7 s: a hot loop (or a fixed 5 s) would show otherwise.
    assertThat(attempts).hasSize(4);
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < attempts.size(); i++) {
      gaps.add(attempts.get(i) - attempts.get(i - 1));
    }
    assertThat(gaps.get(0)).isGreaterThanOrEqualTo(Duration.ofMillis(1000).toNanos());
    assertThat(gaps.get(1)).isGreaterThanOrEqualTo(Duration.ofMillis(2000).toNanos());
    assertThat(gaps.get(2)).isGreaterThanOrEqualTo(Duration.ofMillis(4000).toNanos());
  }

  @Test
  void retryWaitsDoubleUpToFiveMinutes() {
    assertThat(ReconcileQueue.retryAfter(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(ReconcileQueue.retryAfter(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(ReconcileQueue.retryAfter(9)).isEqualTo(Duration.ofSeconds(256));
    assertThat(ReconcileQueue.retryAfter(10)).isEqualTo(Duration.ofMinutes(5));
    assertThat(ReconcileQueue.retryAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void aWakeUpAtTheEndOfTimeIsADayAwayNotAnOverflow() {
    Instant now = Instant.parse("2026-12-01T00:00:00Z");
    assertThat(ReconcileQueue.delayUntil(now, Instant.MAX)).isEqualTo(Duration.ofHours(24));
    assertThat(ReconcileQueue.delayUntil(now, Instant.MIN)).isZero();
    assertThat(ReconcileQueue.delayUntil(now, now.plusSeconds(90)))
        .isEqualTo(Duration.ofSeconds(90));

    AtomicInteger reconciles = new AtomicInteger();
    try (ReconcileQueue queue =
        new ReconcileQueue(
            "test-queue",
            InstantSource.system(),
            key -> {
              reconciles.incrementAndGet();
              return Optional.of(Instant.MAX);
            })) {
      queue.enqueue(KEY);
      await().atMost(Duration.ofSeconds(5)).until(() -> reconciles.get() == 1);
      queue.enqueue(KEY);
      await().atMost(Duration.ofSeconds(5)).until(() -> reconciles.get() == 2);
    }
  }
}
