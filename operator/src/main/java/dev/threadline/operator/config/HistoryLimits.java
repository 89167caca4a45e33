package dev.threadline.operator.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounds on what a run puts in the history store.
 *
 * @param toolOutput {@code THREADLINE_TOOL_OUTPUT_LIMIT}, default 1,048,576: the most characters of
 *     a command's output a run's log keeps (the rest is cut, and the event says how much)
 * @param workspaceArchive {@code THREADLINE_WORKSPACE_ARCHIVE_LIMIT}, default 268,435,456: the
 *     largest zip of a warm-pool workspace kept between runs, in bytes (a larger one is not kept:
 *     the thread's next pool run starts from an empty workspace)
 * @param historyBytes {@code THREADLINE_LIMITS_HISTORYBYTES}, default 1GB (1 GiB; bytes, or a size
 *     in B, KB, MB, GB or TB, powers of 1024, as the API server reads it): the most history a user
 *     may keep; a run the API server did not admit (a schedule's) fails past it
 */
public record HistoryLimits(int toolOutput, long workspaceArchive, long historyBytes) {
  public static final int DEFAULT_TOOL_OUTPUT = 1 << 20;
  public static final long DEFAULT_WORKSPACE_ARCHIVE = 256L << 20;
  public static final long DEFAULT_HISTORY_BYTES = 1L << 30;
  static final String HISTORY_BYTES = "THREADLINE_LIMITS_HISTORYBYTES";

  private static final Pattern SIZE =
      Pattern.compile("(\\d{1,18})(B|KB|MB|GB|TB)?", Pattern.CASE_INSENSITIVE);
  private static final List<String> UNITS = List.of("B", "KB", "MB", "GB", "TB");

  public HistoryLimits {
    if (toolOutput < 1) {
      throw new IllegalArgumentException("THREADLINE_TOOL_OUTPUT_LIMIT must be positive");
    }
    if (workspaceArchive < 1) {
      throw new IllegalArgumentException("THREADLINE_WORKSPACE_ARCHIVE_LIMIT must be positive");
    }
    if (historyBytes < 1) {
      throw new IllegalArgumentException(HISTORY_BYTES + " must be at least 1 byte");
    }
  }

  /** With the tool output and workspace bounds given, and the default history quota. */
  public HistoryLimits(int toolOutput, long workspaceArchive) {
    this(toolOutput, workspaceArchive, DEFAULT_HISTORY_BYTES);
  }

  public static HistoryLimits defaults() {
    return new HistoryLimits(DEFAULT_TOOL_OUTPUT, DEFAULT_WORKSPACE_ARCHIVE);
  }

  public static HistoryLimits fromEnvironment(Map<String, String> env) {
    return new HistoryLimits(
        (int) number(env, "THREADLINE_TOOL_OUTPUT_LIMIT", DEFAULT_TOOL_OUTPUT, Integer.MAX_VALUE),
        number(
            env, "THREADLINE_WORKSPACE_ARCHIVE_LIMIT", DEFAULT_WORKSPACE_ARCHIVE, Long.MAX_VALUE),
        size(env, HISTORY_BYTES, DEFAULT_HISTORY_BYTES));
  }

  /** A number of bytes, or one with a unit ({@code 512MB}, {@code 10GB}). */
  private static long size(Map<String, String> env, String name, long fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    Matcher matcher = SIZE.matcher(value.strip());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          name + " must be a number of bytes or a size such as 512MB or 10GB, got: " + value);
    }
    String unit = matcher.group(2) == null ? "B" : matcher.group(2).toUpperCase(Locale.ROOT);
    long bytes;
    try {
      bytes =
          Math.multiplyExact(Long.parseLong(matcher.group(1)), 1L << (10 * UNITS.indexOf(unit)));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(name + " is too large: " + value);
    }
    if (bytes < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 byte, got: " + value);
    }
    return bytes;
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
