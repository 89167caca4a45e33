package dev.threadline.core.batching;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit: callers that arrive while a batch is being written wait together, and the next
 * caller to take the lock writes all of them at once (one transaction, one fsync, one API write
 * instead of one each). A caller returns only once its own request has been written (or has
 * failed), so what a caller is told is as durable as if it had written alone.
 *
 * @param <I> what a caller asks to write
 * @param <O> what a caller gets back
 */
public final class GroupCommit<I, O> {
  /** Writes a batch; must settle every request in it ({@link Request#succeed} or fail). */
  @FunctionalInterface
  public interface Writer<I, O> {
    void write(List<Request<I, O>> batch);
  }

  private final ReentrantLock lock;
  private final int maxBatch;
  private final Queue<Request<I, O>> waiting = new ConcurrentLinkedQueue<>();

  /**
   * @param lock held while a batch is written (shared with whatever else it guards)
   * @param maxBatch the most requests one batch writes; the rest wait for the next
   */
  public GroupCommit(ReentrantLock lock, int maxBatch) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be at least 1: " + maxBatch);
    }
    this.lock = lock;
    this.maxBatch = maxBatch;
  }

  public GroupCommit(int maxBatch) {
    this(new ReentrantLock(), maxBatch);
  }

  /**
   * Writes {@code input}, alone or with others waiting at the same time, and returns its outcome.
   *
   * @param writer how to write a batch; the writer of whichever caller takes the lock is used for
   *     the whole batch, so all callers of one instance must pass writers that do the same
   */
  public O submit(I input, Writer<I, O> writer) {
    Request<I, O> request = new Request<>(input);
    waiting.add(request);
    lock.lock();
    try {
      while (!request.settled) {
        List<Request<I, O>> batch = new ArrayList<>();
        for (Request<I, O> next; batch.size() < maxBatch && (next = waiting.poll()) != null; ) {
          batch.add(next);
        }
        writeSettlingAll(batch, writer);
      }
    } finally {
      lock.unlock();
    }
    if (request.failure != null) {
      throw request.failure;
    }
    return request.output;
  }

  /** How many requests wait for a batch (for tests). */
  int waiting() {
    return waiting.size();
  }

  private static <I, O> void writeSettlingAll(List<Request<I, O>> batch, Writer<I, O> writer) {
    try {
      writer.write(batch);
    } catch (RuntimeException e) {
      batch.forEach(request -> request.fail(e));
    } finally {
      for (Request<I, O> request : batch) {
        if (!request.settled) {
          request.fail(new IllegalStateException("The batch's writer left a request unsettled"));
        }
      }
    }
  }

  /** One caller's request; settled once, under the lock. */
  public static final class Request<I, O> {
    private final I input;
    private O output;
    private RuntimeException failure;
    private boolean settled;

    private Request(I input) {
      this.input = input;
    }

    public I input() {
      return input;
    }

    public boolean settled() {
      return settled;
    }

    public void succeed(O value) {
      output = value;
      failure = null;
      settled = true;
    }

    public void fail(RuntimeException cause) {
      output = null;
      failure = cause;
      settled = true;
    }
  }
}
