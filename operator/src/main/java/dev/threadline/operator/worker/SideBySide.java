package dev.threadline.operator.worker;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Independent reads of a run's start (its task, its memory, the sandbox's bind) done side by side
 * on virtual threads instead of one after another: each is a few API or sandbox round trips, and
 * the first step waits for all of them.
 */
public final class SideBySide {
  private static final ExecutorService VIRTUAL = Executors.newVirtualThreadPerTaskExecutor();

  private SideBySide() {}

  public static <T> Future<T> start(Callable<T> work) {
    return VIRTUAL.submit(work);
  }

  /** The result; what the work threw is thrown here as it was (unchecked ones unwrapped). */
  public static <T> T join(Future<T> started) throws InterruptedException {
    try {
      return started.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
