package dev.threadline.local.kubelet;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test sets. */
final class MutableClock implements InstantSource {
  private final AtomicReference<Instant> now;

  MutableClock(Instant start) {
    now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  void set(Instant instant) {
    now.set(instant);
  }

  void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }
}
