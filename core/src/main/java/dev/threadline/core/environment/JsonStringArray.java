package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses the exec form of Dockerfile instructions ({@code ["executable", "arg"]}): a JSON array of
 * strings and nothing else. Small enough not to need a JSON library in this module.
 */
final class JsonStringArray {

  private final String text;
  private int pos;

  private JsonStringArray(String text) {
    this.text = text;
  }

  /**
   * The strings of the array, or empty when {@code text} is not exactly a JSON array of strings.
   */
  static Optional<List<String>> parse(String text) {
    try {
      var parser = new JsonStringArray(text);
      var values = parser.array();
      parser.skipWhitespace();
      return parser.pos == text.length() ? Optional.of(values) : Optional.empty();
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  private List<String> array() {
    skipWhitespace();
    expect('[');
    var values = new ArrayList<String>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return values;
    }
    while (true) {
      skipWhitespace();
      values.add(string());
      skipWhitespace();
      char c = text.charAt(pos++);
      if (c == ']') {
        return values;
      }
      if (c != ',') {
        throw new IllegalArgumentException("expected , or ]");
      }
    }
  }

  private String string() {
    expect('"');
    var out = new StringBuilder();
    while (true) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw new IllegalArgumentException("control character in string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = text.charAt(pos++);
      switch (escaped) {
        case '"', '\\', '/' -> out.append(escaped);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw new IllegalArgumentException("bad escape");
      }
    }
  }

  private char peek() {
    return text.charAt(pos);
  }

  private void expect(char c) {
    if (text.charAt(pos++) != c) {
      throw new IllegalArgumentException("expected " + c);
    }
  }

  private void skipWhitespace() {
    while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }
}
