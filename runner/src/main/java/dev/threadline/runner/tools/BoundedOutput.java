package dev.threadline.runner.tools;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Collects a command's output up to a byte limit. When there is more, it keeps the beginning and
 * the end (where errors usually are) and says how much was left out in between. Thread-safe.
 */
public final class BoundedOutput {

  private final int headLimit;
  private final int tailLimit;
  private final ByteArrayOutputStream head = new ByteArrayOutputStream();
  private final byte[] tail;
  private int tailStart;
  private int tailLength;
  private long total;

  public BoundedOutput(int limitBytes) {
    if (limitBytes < 2) {
      throw new IllegalArgumentException(
          "the output limit must be at least 2 bytes, was " + limitBytes);
    }
    this.headLimit = limitBytes / 2;
    this.tailLimit = limitBytes - headLimit;
    this.tail = new byte[tailLimit];
  }

  public synchronized void write(byte[] bytes, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (head.size() < headLimit) {
        head.write(bytes[i]);
      } else {
        tail[(tailStart + tailLength) % tailLimit] = bytes[i];
        if (tailLength < tailLimit) {
          tailLength++;
        } else {
          tailStart = (tailStart + 1) % tailLimit;
        }
      }
    }
    total += length;
  }

  /** Every byte written so far, including the ones left out. */
  public synchronized long totalBytes() {
    return total;
  }

  /** The output as text, with a marker where bytes were left out. */
  public synchronized String text() {
    byte[] end = new byte[tailLength];
    for (int i = 0; i < tailLength; i++) {
      end[i] = tail[(tailStart + i) % tailLimit];
    }
    String start = head.toString(StandardCharsets.UTF_8);
    long omitted = total - head.size() - tailLength;
    if (omitted <= 0) {
      return start + new String(end, StandardCharsets.UTF_8);
    }
    return start
        + "\n[... output truncated: "
        + omitted
        + " bytes omitted ...]\n"
        + new String(end, StandardCharsets.UTF_8);
  }
}
