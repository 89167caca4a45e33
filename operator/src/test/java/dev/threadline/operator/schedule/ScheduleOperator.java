package dev.threadline.operator.schedule;

import dev.threadline.operator.kubernetes.ReconcileRetry;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.BareOperators;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import java.time.Clock;
import java.time.Duration;

/**
 * Just the schedule reconciler on a mock API, configured as {@code ThreadlineOperator} configures
 * it, so that the tests alone decide what happens to Runs.
 */
final class ScheduleOperator implements AutoCloseable {
  static final String TRIGGER_IMAGE = "example.test/trigger:1";

  /**
   * Short, so that a test sees a failing reconcile retried eight times in seconds (the last waits
   * still long beside a reconcile's own time on a loaded machine); the backoff's shape (doubling,
   * never given up) is the one every controller has.
   */
  static final Duration RETRY_FIRST_WAIT = Duration.ofMillis(25);

  /** Small, so that a test can fill a namespace. */
  static final int THREAD_LIMIT = 3;

  private final Operator operator;

  private ScheduleOperator(Operator operator) {
    this.operator = operator;
  }

  static ScheduleOperator start(KubernetesClient client, Clock clock) {
    return start(client, clock, Metrics.NOOP);
  }

  /** With {@code metrics} told of every reconcile (a test counts them). */
  static ScheduleOperator start(KubernetesClient client, Clock clock, Metrics metrics) {
    Operator operator = BareOperators.on(client, metrics);
    operator.register(
        new ScheduleReconciler(
            TRIGGER_IMAGE, THREAD_LIMIT, new Conditions(clock), clock, Telemetry.off()),
        o -> o.watchingAllNamespaces().withRetry(ReconcileRetry.backoff(RETRY_FIRST_WAIT)));
    operator.start();
    return new ScheduleOperator(operator);
  }

  @Override
  public void close() {
    operator.stop();
  }
}
