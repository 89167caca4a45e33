package dev.threadline.benchmarks;

import java.util.List;

/** Median and p99 of a set of samples, in milliseconds (nearest-rank). */
record Percentiles(int count, double median, double p99, double min, double max) {
  static Percentiles of(List<Double> samplesMillis) {
    double[] sorted = samplesMillis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    return new Percentiles(
        sorted.length,
        rank(sorted, 0.50),
        rank(sorted, 0.99),
        sorted[0],
        sorted[sorted.length - 1]);
  }

  private static double rank(double[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  @Override
  public String toString() {
    return String.format(
        "median %.2f ms, p99 %.2f ms (min %.2f, max %.2f, n=%d)", median, p99, min, max, count);
  }

  static String row(String name, Percentiles p) {
    return String.format(
        "| %s | %.2f | %.2f | %.2f | %.2f | %d |", name, p.median, p.p99, p.min, p.max, p.count);
  }
}
