package dev.threadline.core.approvals;

import java.util.ArrayList;
import java.util.List;

/**
 * A glob over a whole text: {@code *} matches any run of characters (none included), every other
 * character itself. Matched in time linear in the text and the pattern, whatever either holds: the
 * literal pieces between stars are found leftmost, in order, each with Knuth–Morris–Pratt (the
 * leftmost place of each piece is never worse than a later one), so nothing is tried twice.
 */
public final class Glob {
  private final String pattern;
  private final String prefix;
  private final String suffix;
  private final List<Piece> middle;
  private final boolean starred;

  private Glob(String pattern) {
    this.pattern = pattern;
    String[] parts = pattern.split("\\*", -1);
    this.starred = parts.length > 1;
    this.prefix = parts[0];
    this.suffix = starred ? parts[parts.length - 1] : "";
    List<Piece> pieces = new ArrayList<>();
    for (int i = 1; i < parts.length - 1; i++) {
      if (!parts[i].isEmpty()) {
        pieces.add(new Piece(parts[i]));
      }
    }
    this.middle = List.copyOf(pieces);
  }

  public static Glob of(String pattern) {
    if (pattern == null) {
      throw new IllegalArgumentException("a glob needs a pattern");
    }
    return new Glob(pattern);
  }

  public String pattern() {
    return pattern;
  }

  public boolean matches(CharSequence text) {
    return matches(text, new Work());
  }

  /** Counts the character comparisons of a match, so that a test can bound them. */
  static final class Work {
    long comparisons;
  }

  boolean matches(CharSequence text, Work work) {
    if (!starred) {
      return equalAt(text, 0, prefix, work) && text.length() == prefix.length();
    }
    int end = text.length() - suffix.length();
    if (end < prefix.length()
        || !equalAt(text, 0, prefix, work)
        || !equalAt(text, end, suffix, work)) {
      return false;
    }
    int from = prefix.length();
    for (Piece piece : middle) {
      int found = piece.find(text, from, end, work);
      if (found < 0) {
        return false;
      }
      from = found + piece.text.length();
    }
    return true;
  }

  private static boolean equalAt(CharSequence text, int at, String literal, Work work) {
    if (at < 0 || at + literal.length() > text.length()) {
      return false;
    }
    for (int i = 0; i < literal.length(); i++) {
      work.comparisons++;
      if (text.charAt(at + i) != literal.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** A literal piece with its KMP failure table. */
  private static final class Piece {
    final String text;
    final int[] fallback;

    Piece(String text) {
      this.text = text;
      this.fallback = new int[text.length()];
      int k = 0;
      for (int i = 1; i < text.length(); i++) {
        while (k > 0 && text.charAt(i) != text.charAt(k)) {
          k = fallback[k - 1];
        }
        if (text.charAt(i) == text.charAt(k)) {
          k++;
        }
        fallback[i] = k;
      }
    }

    /** The first index in {@code [from, end)} where the piece lies whole before {@code end}. */
    int find(CharSequence haystack, int from, int end, Work work) {
      int k = 0;
      for (int i = from; i < end; i++) {
        while (k > 0 && haystack.charAt(i) != text.charAt(k)) {
          work.comparisons++;
          k = fallback[k - 1];
        }
        work.comparisons++;
        if (haystack.charAt(i) == text.charAt(k)) {
          k++;
          if (k == text.length()) {
            return i - k + 1;
          }
        }
      }
      return -1;
    }
  }

  @Override
  public String toString() {
    return pattern;
  }
}
