package dev.threadline.operator.config;

import java.util.Map;

/**
 * Bounds on what a run puts in the history store.
 *
 * @param toolOutput {@code THREADLINE_TOOL_OUTPUT_LIMIT}, default 1,048,576: the most characters of
 *     a command's output a run's log keeps (the rest is cut, and the event says how much)
 * @param workspaceArchive {@code THREADLINE_WORKSPACE_ARCHIVE_LIMIT}, default 268,435,456: the
 *     largest zip of a warm-pool workspace kept between runs, in bytes (a larger one is not kept:
 *     the thread's next pool run starts from an empty workspace)
 */
public record HistoryLimits(int toolOutput, long workspaceArchive) {
  public static final int DEFAULT_TOOL_OUTPUT = 1 << 20;
  public static final long DEFAULT_WORKSPACE_ARCHIVE = 256L << 20;

  public HistoryLimits {
    if (toolOutput < 1) {
      throw new IllegalArgumentException("THREADLINE_TOOL_OUTPUT_LIMIT must be positive");
    }
    if (workspaceArchive < 1) {
      throw new IllegalArgumentException("THREADLINE_WORKSPACE_ARCHIVE_LIMIT must be positive");
    }
  }

  public static HistoryLimits defaults() {
    return new HistoryLimits(DEFAULT_TOOL_OUTPUT, DEFAULT_WORKSPACE_ARCHIVE);
  }

  public static HistoryLimits fromEnvironment(Map<String, String> env) {
    return new HistoryLimits(
        (int) number(env, "THREADLINE_TOOL_OUTPUT_LIMIT", DEFAULT_TOOL_OUTPUT, Integer.MAX_VALUE),
        number(
            env, "THREADLINE_WORKSPACE_ARCHIVE_LIMIT", DEFAULT_WORKSPACE_ARCHIVE, Long.MAX_VALUE));
  }

  private static long number(Map<String, String> env, String name, long fallback, long max) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.strip());
      if (parsed < 1 || parsed > max) {
        throw new IllegalArgumentException(
            name + " must be between 1 and " + max + ", got: " + value);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, got: " + value);
    }
  }
}
