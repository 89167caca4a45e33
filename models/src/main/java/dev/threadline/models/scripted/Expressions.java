package dev.threadline.models.scripted;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the stretches of a message that may be arithmetic: what {@code
 * [-+(]*\s*[\d.][\d\s.+\-*\/x×÷()]*} finds one after another, scanned by hand. The pattern started
 * a try at every position of a run of spaces or signs and read to the run's end each time, so a
 * message of spaces took time in the square of its length; here each character is read at most
 * twice (once forward, and once back from the number that follows it).
 */
final class Expressions {

  private Expressions() {}

  /** The stretches in the order they appear; none overlap. */
  static List<CharSequence> in(CharSequence text) {
    List<CharSequence> found = new ArrayList<>();
    int afterPrevious = 0;
    int index = 0;
    while (index < text.length()) {
      if (!isNumberStart(text.charAt(index))) {
        index++;
        continue;
      }
      // The leftmost start: back over the spaces before the number, then over the signs and
      // opening parentheses before those, never into the previous stretch.
      int start = index;
      while (start > afterPrevious && Text.isSpace(text.charAt(start - 1))) {
        start--;
      }
      while (start > afterPrevious && isPrefix(text.charAt(start - 1))) {
        start--;
      }
      int end = index + 1;
      while (end < text.length() && isBody(text.charAt(end))) {
        end++;
      }
      found.add(text.subSequence(start, end));
      afterPrevious = end;
      index = end;
    }
    return found;
  }

  private static boolean isNumberStart(char c) {
    return (c >= '0' && c <= '9') || c == '.';
  }

  private static boolean isPrefix(char c) {
    return c == '-' || c == '+' || c == '(';
  }

  private static boolean isBody(char c) {
    return isNumberStart(c) || Text.isSpace(c) || "+-*/x×÷()".indexOf(c) >= 0;
  }
}
