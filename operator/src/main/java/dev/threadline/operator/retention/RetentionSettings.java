package dev.threadline.operator.retention;

import dev.threadline.operator.webhooks.WebhookSettings;
import java.time.Duration;
import java.util.Map;

/**
 * How long finished work stays in the Kubernetes API once its content is in the history store, as a
 * Job's {@code ttlSecondsAfterFinished} and Argo's workflow archive do: informers then hold live
 * work only, and REST serves the rest from the store.
 *
 * @param runs {@value #RUNS}, default 10m: a finished Run whose usage is counted and webhooks
 *     queued leaves the API this long after it ended
 * @param threads {@value #THREADS}, default 7d: a thread with no run left in the API leaves it this
 *     long after its last change (its workspace volume goes with it; a follow-up message brings it
 *     back with its whole history)
 */
public record RetentionSettings(Duration runs, Duration threads) {
  public static final String RUNS = "THREADLINE_RUN_RETENTION";
  public static final String THREADS = "THREADLINE_THREAD_RETENTION";
  static final Duration DEFAULT_RUNS = Duration.ofMinutes(10);
  static final Duration DEFAULT_THREADS = Duration.ofDays(7);

  public RetentionSettings {
    if (runs.isNegative() || threads.isNegative()) {
      throw new IllegalArgumentException(RUNS + " and " + THREADS + " must not be negative");
    }
  }

  public static RetentionSettings defaults() {
    return new RetentionSettings(DEFAULT_RUNS, DEFAULT_THREADS);
  }

  public static RetentionSettings fromEnvironment(Map<String, String> env) {
    return new RetentionSettings(
        read(env, RUNS, DEFAULT_RUNS), read(env, THREADS, DEFAULT_THREADS));
  }

  private static Duration read(Map<String, String> env, String variable, Duration fallback) {
    String value = env.get(variable);
    return value == null || value.isBlank() ? fallback : WebhookSettings.duration(variable, value);
  }
}
