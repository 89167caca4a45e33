package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits instruction arguments into words as the Dockerfile parser does for {@code ENV}, {@code
 * LABEL}, {@code ARG} and flags: whitespace separates words unless quoted with {@code "} or {@code
 * '}, and a backslash escapes the next character. Quotes are kept in the words: only the boundaries
 * matter for the shape checks.
 */
final class ShellWords {

  private ShellWords() {}

  /** The words, or empty when a quote is never closed. */
  static Optional<List<String>> split(String text) {
    var words = new ArrayList<String>();
    var current = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote == 0 && Character.isWhitespace(c)) {
        if (inWord) {
          words.add(current.toString());
          current.setLength(0);
          inWord = false;
        }
        continue;
      }
      inWord = true;
      current.append(c);
      if (c == '\\' && quote != '\'' && i + 1 < text.length()) {
        current.append(text.charAt(++i));
      } else if (quote == 0 && (c == '"' || c == '\'')) {
        quote = c;
      } else if (c == quote) {
        quote = 0;
      }
    }
    if (quote != 0) {
      return Optional.empty();
    }
    if (inWord) {
      words.add(current.toString());
    }
    return Optional.of(words);
  }
}
