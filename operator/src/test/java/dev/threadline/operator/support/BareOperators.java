package dev.threadline.operator.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;

/**
 * A framework {@link Operator} configured as {@code ThreadlineOperator} configures its own (plain
 * patches, no server-side apply) that leaves the client to the test, for tests that register only
 * the reconcilers they exercise.
 */
public final class BareOperators {
  private BareOperators() {}

  public static Operator on(KubernetesClient client) {
    return on(client, Metrics.NOOP);
  }

  /** With {@code metrics} told of every reconcile (a test counts them). */
  public static Operator on(KubernetesClient client, Metrics metrics) {
    return new Operator(o ->
        o.withKubernetesClient(client)
            .withCloseClientOnStop(false)
            .withUseSSAToPatchPrimaryResource(false)
            .withSSABasedCreateUpdateMatchForDependentResources(false)
            .withMetrics(metrics));
  }
}
