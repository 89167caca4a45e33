package dev.threadline.runner.serve.calls;

import dev.threadline.runner.tools.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One call the sandbox received: its output so far and, once it ends, its result. Any number of
 * connections may follow it; none of them owns it, so a call outlives the connection that posted
 * it.
 */
public final class ToolCallExecution {
  /** The most output streamed per call; the result still holds the head and tail of all of it. */
  static final int MAX_STREAMED_CHARS = 1024 * 1024;

  private final CallRequest request;
  private final Runnable kill;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<String> output = new ArrayList<>();
  private long streamedChars;
  private Finished finished;

  ToolCallExecution(CallRequest request, Runnable kill) {
    this.request = request;
    this.kill = kill;
  }

  /** A call's outcome. */
  public record Finished(ToolResult result, long durationMs) {}

  /**
   * What a follower has not seen yet.
   *
   * @param output output pieces past the follower's position
   * @param finished the outcome, once the call has ended (after the last piece)
   */
  public record Progress(List<String> output, Finished finished) {}

  public CallRequest request() {
    return request;
  }

  public String id() {
    return request.id();
  }

  public boolean running() {
    return finished().isEmpty();
  }

  public String state() {
    return running() ? "running" : "finished";
  }

  public Optional<Finished> finished() {
    lock.lock();
    try {
      return Optional.ofNullable(finished);
    } finally {
      lock.unlock();
    }
  }

  /** How many output pieces exist: a follower that joins now starts here. */
  public int position() {
    lock.lock();
    try {
      return output.size();
    } finally {
      lock.unlock();
    }
  }

  /** Blocks until there is output past {@code from} or the call has ended. */
  public Progress next(int from) throws InterruptedException {
    lock.lock();
    try {
      while (output.size() <= from && finished == null) {
        changed.await();
      }
      return new Progress(List.copyOf(output.subList(from, output.size())), finished);
    } finally {
      lock.unlock();
    }
  }

  /** Waits at most {@code millis} for the call to end; whether it has. */
  public boolean awaitEnd(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    lock.lock();
    try {
      while (finished == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Kills the call's process tree, if it has one; its result then says so. */
  public void kill() {
    if (running()) {
      kill.run();
    }
  }

  void output(String piece) {
    if (piece.isEmpty()) {
      return;
    }
    lock.lock();
    try {
      if (streamedChars >= MAX_STREAMED_CHARS) {
        return;
      }
      streamedChars += piece.length();
      output.add(piece);
      if (streamedChars >= MAX_STREAMED_CHARS) {
        output.add("\n[output streaming stopped after " + MAX_STREAMED_CHARS + " characters]\n");
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void finish(ToolResult result, long durationMs) {
    lock.lock();
    try {
      finished = new Finished(result, durationMs);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
