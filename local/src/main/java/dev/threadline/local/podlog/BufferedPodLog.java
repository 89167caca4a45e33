package dev.threadline.local.podlog;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** A {@link PodLog} held in memory, appended to by whoever reads the container's output. */
public final class BufferedPodLog implements PodLog {
  private final ByteArrayOutputStream content = new ByteArrayOutputStream();
  private final List<Follower> followers = new ArrayList<>();
  private boolean finished;

  /** Appends output and hands it to every follower. */
  public synchronized void append(byte[] bytes, int offset, int length) {
    if (finished) {
      throw new IllegalStateException("log already finished");
    }
    content.write(bytes, offset, length);
    byte[] chunk = Arrays.copyOfRange(bytes, offset, offset + length);
    for (Follower follower : List.copyOf(followers)) {
      follower.onChunk.accept(chunk);
    }
  }

  public void append(byte[] bytes) {
    append(bytes, 0, bytes.length);
  }

  /** Marks the container as ended; followers get their end callback and are released. */
  public synchronized void finish() {
    if (finished) {
      return;
    }
    finished = true;
    for (Follower follower : List.copyOf(followers)) {
      follower.onEnd.run();
    }
    followers.clear();
  }

  @Override
  public synchronized byte[] snapshot() {
    return content.toByteArray();
  }

  @Override
  public synchronized boolean finished() {
    return finished;
  }

  @Override
  public synchronized AutoCloseable follow(Consumer<byte[]> onChunk, Runnable onEnd) {
    byte[] soFar = content.toByteArray();
    if (soFar.length > 0) {
      onChunk.accept(soFar);
    }
    if (finished) {
      onEnd.run();
      return () -> {};
    }
    Follower follower = new Follower(onChunk, onEnd);
    followers.add(follower);
    return () -> {
      synchronized (BufferedPodLog.this) {
        followers.remove(follower);
      }
    };
  }

  private record Follower(Consumer<byte[]> onChunk, Runnable onEnd) {}
}
