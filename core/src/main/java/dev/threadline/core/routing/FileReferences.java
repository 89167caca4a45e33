package dev.threadline.core.routing;

import java.util.Optional;
import java.util.Set;

/**
 * Finds a file name or path with a known extension ({@code src/app.py}, {@code ./run.sh}) in a
 * message. A hand-written scan rather than a regular expression: a pattern with a repeated path
 * segment backtracks over every start position of inputs like {@code a.a.a…}, so its work grows
 * with the square of the message; this scan reads each character a bounded number of times.
 */
final class FileReferences {
  private static final Set<String> EXTENSIONS =
      Set.of(
          "py", "js", "ts", "java", "go", "rs", "rb", "php", "c", "h", "cpp", "sh", "md", "txt",
          "json", "yml", "yaml", "toml", "csv", "html", "css", "sql", "xml", "ini", "cfg", "lock");
  private static final int LONGEST_EXTENSION = 4;

  private FileReferences() {}

  /**
   * The first reference in {@code text}: a run of path characters ({@code [A-Za-z0-9_./-]}) that
   * holds a name followed by {@code .extension} and then no further word character, from the start
   * of the run to the end of the extension.
   */
  static Optional<String> first(CharSequence text) {
    int length = text.length();
    int index = 0;
    while (index < length) {
      if (!isPathCharacter(text.charAt(index))) {
        index++;
        continue;
      }
      int runStart = index;
      int nameLength = 0;
      char current;
      while (index < length && isPathCharacter(current = text.charAt(index))) {
        if (current == '.' && nameLength > 0) {
          int extensionEnd = endOfWord(text, index + 1);
          if (extensionEnd - index - 1 <= LONGEST_EXTENSION
              && EXTENSIONS.contains(text.subSequence(index + 1, extensionEnd).toString())) {
            return Optional.of(text.subSequence(runStart, extensionEnd).toString());
          }
        }
        nameLength = isWordCharacter(current) || current == '-' ? nameLength + 1 : 0;
        index++;
      }
    }
    return Optional.empty();
  }

  /** The end of the word that starts at {@code from}, reading at most one character past it. */
  private static int endOfWord(CharSequence text, int from) {
    int end = from;
    while (end < text.length()
        && end - from <= LONGEST_EXTENSION
        && isWordCharacter(text.charAt(end))) {
      end++;
    }
    return end;
  }

  private static boolean isPathCharacter(char c) {
    return isWordCharacter(c) || c == '.' || c == '/' || c == '-';
  }

  private static boolean isWordCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
}
