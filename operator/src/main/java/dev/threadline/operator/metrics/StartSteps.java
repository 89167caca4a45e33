package dev.threadline.operator.metrics;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Times the steps of computer runs' starts ({@link StartStep}) into {@code
 * threadline_sandbox_start_step_duration{step}}, so that where a start's time goes is visible in
 * the operator's metrics and the warm-pool benchmark, not guessed.
 */
public final class StartSteps {
  /** Times nothing. */
  public static final StartSteps NONE = new StartSteps(null);

  private final OperatorMetrics metrics;

  public StartSteps(OperatorMetrics metrics) {
    this.metrics = metrics;
  }

  /** Runs {@code work} and records how long it took as {@code step}, whether it threw or not. */
  public <T> T time(StartStep step, Supplier<T> work) {
    long began = System.nanoTime();
    try {
      return work.get();
    } finally {
      since(step, began);
    }
  }

  /** Runs {@code work}, recording how long it took as {@code step}. */
  public void time(StartStep step, Runnable work) {
    long began = System.nanoTime();
    try {
      work.run();
    } finally {
      since(step, began);
    }
  }

  /**
   * Records the time from {@code beganNanos} ({@link System#nanoTime()}) to now as {@code step}.
   */
  public void since(StartStep step, long beganNanos) {
    if (metrics != null) {
      metrics.startStep(step.label(), Duration.ofNanos(System.nanoTime() - beganNanos));
    }
  }
}
