package dev.threadline.core.environment;

/**
 * Shows user input inside an error message or a Dockerfile comment without letting it forge lines
 * or hide characters: control, format and line/paragraph separator characters are escaped.
 */
final class MessageText {

  private static final int MAX_SHOWN = 120;

  private MessageText() {}

  /**
   * {@code value} in double quotes with control characters, quotes and backslashes escaped, cut to
   * a readable length.
   */
  static String literal(String value) {
    if (value == null) {
      return "null";
    }
    var shown = value.length() > MAX_SHOWN ? value.substring(0, MAX_SHOWN) : value;
    var out = new StringBuilder("\"");
    shown
        .codePoints()
        .forEach(cp -> {
          switch (cp) {
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case '"' -> out.append("\\\"");
            case '\\' -> out.append("\\\\");
            default -> {
              int type = Character.getType(cp);
              if (Character.isISOControl(cp)
                  || type == Character.FORMAT
                  || type == Character.LINE_SEPARATOR
                  || type == Character.PARAGRAPH_SEPARATOR) {
                out.append("\\u%04x".formatted(cp));
              } else {
                out.appendCodePoint(cp);
              }
            }
          }
        });
    out.append('"');
    if (shown.length() < value.length()) {
      out.append("...");
    }
    return out.toString();
  }
}
