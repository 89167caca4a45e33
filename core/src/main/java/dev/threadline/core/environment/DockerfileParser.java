package dev.threadline.core.environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits Dockerfile text into logical instructions the way BuildKit's parser does, without
 * building: comment and blank lines are skipped (also inside a continued instruction), a trailing
 * backslash continues the instruction on the next line, and {@code RUN}, {@code COPY} and {@code
 * ADD} may be followed by heredoc bodies ({@code <<EOF}, {@code <<-EOF}, quoted delimiters), which
 * are consumed up to their closing delimiter line.
 *
 * <p>Parser directives and a custom {@code escape} character are not supported: extensions sit in
 * the middle of a generated Dockerfile, where directives are plain comments anyway.
 */
final class DockerfileParser {

  /** One logical instruction; {@code line} is where it starts (1-based). */
  record Instruction(int line, String keyword, String arguments) {}

  /** A problem found while splitting, located by line. */
  record Problem(int line, String message) {}

  record Result(List<Instruction> instructions, List<Problem> problems) {}

  private static final Pattern CONTINUATION = Pattern.compile("\\\\[ \\t]*$");
  private static final Pattern HEREDOC =
      Pattern.compile("(?<!<)<<(?!<)(-?)([\"']?)([A-Za-z_][A-Za-z0-9_]*)\\2");
  private static final Set<String> HEREDOC_INSTRUCTIONS = Set.of("RUN", "COPY", "ADD");

  private DockerfileParser() {}

  static Result parse(String text) {
    var lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
    var instructions = new ArrayList<Instruction>();
    var problems = new ArrayList<Problem>();
    int i = 0;
    while (i < lines.length) {
      if (isSkippable(lines[i])) {
        i++;
        continue;
      }
      int start = i + 1;
      var logical = new StringBuilder();
      while (true) {
        var current = lines[i];
        var continuation = CONTINUATION.matcher(current);
        if (!continuation.find()) {
          logical.append(current);
          i++;
          break;
        }
        logical.append(current, 0, continuation.start());
        int continuedAt = i + 1;
        i++;
        while (i < lines.length && isSkippable(lines[i])) {
          i++;
        }
        if (i >= lines.length) {
          problems.add(
              new Problem(
                  continuedAt,
                  "line continuation (trailing \\) at the end of the extensions would swallow the"
                      + " next generated instruction"));
          break;
        }
      }
      var instruction = toInstruction(start, logical.toString().strip());
      instructions.add(instruction);
      if (HEREDOC_INSTRUCTIONS.contains(instruction.keyword().toUpperCase(Locale.ROOT))) {
        i = skipHeredocs(lines, i, instruction, problems);
      }
    }
    return new Result(instructions, problems);
  }

  private static boolean isSkippable(String line) {
    var stripped = line.strip();
    return stripped.isEmpty() || stripped.startsWith("#");
  }

  private static Instruction toInstruction(int line, String logical) {
    int space = indexOfWhitespace(logical);
    var keyword = space < 0 ? logical : logical.substring(0, space);
    var arguments = space < 0 ? "" : logical.substring(space).strip();
    return new Instruction(line, keyword, arguments);
  }

  private static int indexOfWhitespace(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Consumes the bodies of the heredocs an instruction opens, in order; returns the next line. */
  private static int skipHeredocs(
      String[] lines, int next, Instruction instruction, List<Problem> problems) {
    Matcher marker = HEREDOC.matcher(instruction.arguments());
    int i = next;
    while (marker.find()) {
      boolean stripTabs = !marker.group(1).isEmpty();
      var delimiter = marker.group(3);
      boolean closed = false;
      while (i < lines.length) {
        var body = stripTabs ? lines[i].replaceFirst("^\\t+", "") : lines[i];
        i++;
        if (body.equals(delimiter)) {
          closed = true;
          break;
        }
      }
      if (!closed) {
        problems.add(
            new Problem(
                instruction.line(),
                "heredoc <<%s is never closed (expected a line %s)"
                    .formatted(delimiter, delimiter)));
        return i;
      }
    }
    return i;
  }
}
