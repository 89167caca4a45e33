package dev.threadline.operator.deltas;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.models.TextDeltas;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One producer's deltas for one run, kept in memory from the first to the last so that a reader
 * that connects late (the api-server learns the channel from a watch) still gets all of them, in
 * order. Producers never block on readers: a slow or absent reader costs nothing but memory, which
 * is bounded ({@value #MAX_LINES} lines; later deltas are dropped, marks never).
 */
public final class DeltaSession implements Deltas {
  static final int MAX_LINES = 20_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String id;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition grown = lock.newCondition();
  private final List<String> lines = new ArrayList<>();
  private boolean closed;
  private Instant closedAt;

  DeltaSession(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  @Override
  public boolean live() {
    return true;
  }

  /** A listener that sends model text as {@code response.output_text.delta} of {@code itemId}. */
  @Override
  public TextDeltas text(String itemId) {
    return delta -> delta(DeltaWire.TEXT_DELTA, itemId, delta);
  }

  /**
   * A listener that sends command output as {@code response.output_item.delta} of {@code itemId}.
   */
  @Override
  public TextDeltas output(String itemId) {
    return delta -> delta(DeltaWire.OUTPUT_DELTA, itemId, delta);
  }

  /** Says that every delta sent so far precedes the Run's log entries up to {@code seq}. */
  @Override
  public void written(long seq) {
    ObjectNode line = JSON.createObjectNode().put("type", DeltaWire.WRITTEN).put("seq", seq);
    append(line.toString(), true);
  }

  /** Ends the session: readers get what is left, then the end of the stream. */
  public void close() {
    lock.lock();
    try {
      if (!closed) {
        closed = true;
        closedAt = Instant.now();
        grown.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void delta(String type, String itemId, String delta) {
    if (delta == null || delta.isEmpty()) {
      return;
    }
    ObjectNode line =
        JSON.createObjectNode().put("type", type).put("delta", delta).put("item_id", itemId);
    append(line.toString(), false);
  }

  private void append(String line, boolean always) {
    lock.lock();
    try {
      if (closed || (!always && lines.size() >= MAX_LINES)) {
        return;
      }
      lines.add(line);
      grown.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The lines from {@code from} on, waiting up to {@code wait} for one; empty when none came in
   * time or the session is closed and read to its end (then {@link #isDrained} says so).
   */
  List<String> read(int from, Duration wait) throws InterruptedException {
    long nanos = wait.toNanos();
    lock.lock();
    try {
      while (lines.size() <= from && !closed && nanos > 0) {
        nanos = grown.awaitNanos(nanos);
      }
      return lines.size() > from ? List.copyOf(lines.subList(from, lines.size())) : List.of();
    } finally {
      lock.unlock();
    }
  }

  boolean isDrained(int read) {
    lock.lock();
    try {
      return closed && read >= lines.size();
    } finally {
      lock.unlock();
    }
  }

  /** Whether the session ended before {@code instant}. */
  boolean closedBefore(Instant instant) {
    lock.lock();
    try {
      return closed && closedAt.isBefore(instant);
    } finally {
      lock.unlock();
    }
  }
}
