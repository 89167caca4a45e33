package dev.threadline.api.stream;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import java.time.Duration;
import java.util.Optional;

/** Waits, without polling, until a run is finished: for requests with {@code stream: false}. */
public final class RunCompletion {
  private final RunUpdates updates;
  private final ManagedInformer<Run> cache;

  public RunCompletion(RunUpdates updates, ManagedInformer<Run> cache) {
    this.updates = updates;
    this.cache = cache;
  }

  /** How the wait ended; {@code run} is the finished run for {@link Kind#FINISHED}, else null. */
  public record Outcome(Kind kind, Run run) {
    public enum Kind {
      FINISHED,
      TIMED_OUT,
      DELETED,
      SHUTDOWN
    }
  }

  public Outcome await(String namespace, String name, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (RunFollower follower =
        RunFollower.follow(updates, cache, namespace, name, java.util.Optional.empty())) {
      while (true) {
        Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
        if (remaining.isNegative() || remaining.isZero()) {
          return new Outcome(Outcome.Kind.TIMED_OUT, null);
        }
        Optional<RunUpdate> update = follower.next(remaining);
        if (update.isEmpty()) {
          continue;
        }
        switch (update.get().kind()) {
          case DELETED -> {
            return new Outcome(Outcome.Kind.DELETED, null);
          }
          case SHUTDOWN -> {
            return new Outcome(Outcome.Kind.SHUTDOWN, null);
          }
          case CHANGED -> {
            Run run = update.get().run();
            if (RunPhase.of(run).isTerminal()) {
              return new Outcome(Outcome.Kind.FINISHED, run);
            }
          }
        }
      }
    }
  }
}
