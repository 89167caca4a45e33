package dev.threadline.local.podlog;

import java.util.function.Consumer;

/** The output of one container: what it wrote so far, and what it writes next until it ends. */
public interface PodLog {
  /** Everything the container has written so far. */
  byte[] snapshot();

  /** Whether the container has ended and all its output is in {@link #snapshot()}. */
  boolean finished();

  /**
   * Delivers everything written so far and then each new chunk as it is written, in order and each
   * byte once, then calls {@code onEnd} once the container has ended. Callbacks may run on the
   * writer's thread: they must not block. Closing the returned handle stops the delivery.
   */
  AutoCloseable follow(Consumer<byte[]> onChunk, Runnable onEnd);
}
