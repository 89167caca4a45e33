package dev.threadline.core.testing;

/**
 * A text that counts every character read from it and fails once the reads pass a budget, so a test
 * bounds the work of a matcher by its reads instead of by wall time (and a quadratic one stops at
 * the budget instead of running for minutes). Shared by the tests of every scan of user text.
 */
public final class ReadCountingText implements CharSequence {
  private final String text;
  private final int offset;
  private final int length;
  private final long[] reads;
  private final long budget;

  public ReadCountingText(String text, long budget) {
    this(text, 0, text.length(), new long[1], budget);
  }

  private ReadCountingText(String text, int offset, int length, long[] reads, long budget) {
    this.text = text;
    this.offset = offset;
    this.length = length;
    this.reads = reads;
    this.budget = budget;
  }

  public long reads() {
    return reads[0];
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    if (++reads[0] > budget) {
      throw new IllegalStateException("more than " + budget + " character reads");
    }
    return text.charAt(offset + index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new ReadCountingText(text, offset + start, end - start, reads, budget);
  }

  @Override
  public String toString() {
    var copy = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      copy.append(charAt(i));
    }
    return copy.toString();
  }
}
