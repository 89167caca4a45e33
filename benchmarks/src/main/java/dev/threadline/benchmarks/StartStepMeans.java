package dev.threadline.benchmarks;

import dev.threadline.operator.metrics.StartStep;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's per-step meters of runs' starts ({@code threadline_sandbox_start_step_duration})
 * over one phase of a benchmark: the difference of two scrapes of its /metrics, so the rows count
 * only the runs of that phase. Steps run side by side (task, memory, bind) overlap; the rows say
 * what each took, not a sum.
 */
final class StartStepMeans {
  static final String METER = "threadline_sandbox_start_step_duration";
  static final String TABLE_HEAD = "| step | what it does | mean ms | n |\n|---|---|---|---|";

  private StartStepMeans() {}

  /** One row per step that was timed between the two scrapes. */
  static List<String> rows(String before, String after) {
    List<String> rows = new ArrayList<>();
    for (StartStep step : StartStep.values()) {
      String labels = "step=\"" + step.label() + "\"";
      double count = count(after, labels) - count(before, labels);
      if (count <= 0) {
        continue;
      }
      double sum = sum(after, labels) - sum(before, labels);
      rows.add(
          String.format(
              "| %s | %s | %.2f | %d |",
              step.label(), step.description(), sum / count * 1000, (long) count));
    }
    return rows;
  }

  private static double count(String metrics, String labels) {
    return WarmPoolBenchmark.value(metrics, METER + "_seconds_count{" + labels);
  }

  private static double sum(String metrics, String labels) {
    return WarmPoolBenchmark.value(metrics, METER + "_seconds_sum{" + labels);
  }
}
