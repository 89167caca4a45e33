package dev.threadline.models.scripted;

/**
 * Hand-written scans of user text for the scripted model: each reads every character a bounded
 * number of times, where the regular expressions they replace ({@code [?=.!\s]+$}, {@code \s+}
 * after {@code strip()}) re-read a run of spaces from each of its positions.
 */
final class Text {

  private Text() {}

  /** {@code text} without leading and trailing white space. */
  static CharSequence strip(CharSequence text) {
    int start = 0;
    int end = text.length();
    while (start < end && isSpace(text.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(text.charAt(end - 1))) {
      end--;
    }
    return text.subSequence(start, end);
  }

  /** {@code text} without the white space and the characters of {@code marks} it ends with. */
  static CharSequence withoutTrailing(CharSequence text, String marks) {
    int end = text.length();
    while (end > 0 && (isSpace(text.charAt(end - 1)) || marks.indexOf(text.charAt(end - 1)) >= 0)) {
      end--;
    }
    return text.subSequence(0, end);
  }

  /** {@code text} stripped, each run of white space inside it one space. */
  static String collapseSpaces(CharSequence text) {
    return collapseSpaces(text, Integer.MAX_VALUE);
  }

  /**
   * Like {@link #collapseSpaces(CharSequence)}, but stops once the result has {@code limit}
   * characters: only that much of {@code text} is read.
   */
  static String collapseSpaces(CharSequence text, int limit) {
    StringBuilder collapsed = new StringBuilder();
    boolean space = false;
    for (int i = 0; i < text.length() && collapsed.length() < limit; i++) {
      char c = text.charAt(i);
      if (isSpace(c)) {
        space = !collapsed.isEmpty();
      } else {
        if (space) {
          collapsed.append(' ');
          space = false;
        }
        collapsed.append(c);
      }
    }
    return collapsed.length() > limit ? collapsed.substring(0, limit) : collapsed.toString();
  }

  /** White space as {@link String#strip()} and the patterns' {@code \s} know it. */
  static boolean isSpace(char c) {
    return Character.isWhitespace(c) || c == '\u000B';
  }
}
