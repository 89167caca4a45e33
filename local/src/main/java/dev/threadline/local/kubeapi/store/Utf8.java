package dev.threadline.local.kubeapi.store;

/** Byte counts of text as UTF-8, without encoding it. */
public final class Utf8 {
  private Utf8() {}

  /** The number of bytes {@code text} takes in UTF-8 (a lone surrogate counts as one '?'). */
  public static long length(CharSequence text) {
    long bytes = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        bytes += 1;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** Whether {@code text} takes more than {@code limit} bytes in UTF-8; cheap for short text. */
  public static boolean longerThan(CharSequence text, long limit) {
    if ((long) text.length() * 3 <= limit) {
      return false;
    }
    return text.length() > limit || length(text) > limit;
  }
}
