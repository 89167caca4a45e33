package dev.threadline.core.limits;

import java.util.Map;

/**
 * How many threads one user (namespace) may hold: the API server enforces it on {@code POST
 * /v1/threads} and manual triggers, the operator and the CronJob's trigger Pod on schedule firings.
 * One variable and one default for all of them (docs/limits.md).
 */
public final class ThreadLimit {
  /** The environment variable (chart value {@code limits.threads}). */
  public static final String VARIABLE = "THREADLINE_LIMITS_THREADS";

  public static final int DEFAULT = 2000;

  private ThreadLimit() {}

  /** The limit {@link #VARIABLE} sets, or {@link #DEFAULT}; a value that is not positive fails. */
  public static int fromEnvironment(Map<String, String> env) {
    String value = env.get(VARIABLE);
    if (value == null || value.isBlank()) {
      return DEFAULT;
    }
    int limit;
    try {
      limit = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(VARIABLE + " must be a whole number", e);
    }
    if (limit < 1) {
      throw new IllegalArgumentException(VARIABLE + " must be at least 1");
    }
    return limit;
  }
}
