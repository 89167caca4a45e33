package dev.threadline.core.environment;

/**
 * POSIX shell quoting for values the renderer puts on a {@code RUN} line.
 *
 * <p>Package names are validated against strict allowlists before they get here; quoting them
 * anyway means one missed case in a regex still cannot become a command. Single quotes are used
 * because nothing inside them is special to the shell ({@code $}, backticks, {@code ;}, {@code |},
 * {@code <}, {@code >} and {@code !} included), and the Dockerfile parser does not substitute
 * variables in {@code RUN}.
 */
public final class ShellQuoting {

  private ShellQuoting() {}

  /**
   * {@code value} as one single-quoted shell word; an embedded {@code '} becomes {@code '\''}.
   *
   * @throws IllegalArgumentException when the value holds a line break or NUL: a line break would
   *     end the Dockerfile instruction whatever the shell quoting, and the shell cannot carry NUL
   */
  public static String quote(String value) {
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0 || value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "A value on a Dockerfile RUN line cannot contain a line break or NUL: "
              + MessageText.literal(value));
    }
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
