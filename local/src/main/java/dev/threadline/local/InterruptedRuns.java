package dev.threadline.local;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.SandboxGiveBack;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a restart of the local mode finds in its durable store that the stop (or a kill) ended:
 * every Pod was a process of the previous JVM and is gone, so its object is deleted (controllers
 * make new ones where they are still wanted), and a Run that was {@code running} cannot go on, so
 * it ends {@code failed} with a message that says why, as the worker ends a failed run: its {@code
 * failed} event in the history store announcing every event the worker stored, its last usage
 * report counted, its cost and duration ({@link ComputerStatus#interrupt}). Pending runs are left
 * to start as usual, and so are runs that wait for a person with their sandbox given back: their
 * workspace is kept and they take a sandbox again when answered.
 */
final class InterruptedRuns {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptedRuns.class);
  static final String MESSAGE =
      "The local mode stopped while this run was running; its agent process ended with it. Send"
          + " the message again to retry.";

  private InterruptedRuns() {}

  /** Runs before the kubelet and the operator start, so nothing races these writes. */
  static void recover(KubernetesClient client, ComputerStatus statuses, ModelPricing pricing) {
    int pods = 0;
    for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
      client.pods().resource(pod).withGracePeriod(0).delete();
      pods++;
    }
    int runs = 0;
    Instant now = Instant.now();
    for (Run run : client.resources(Run.class).inAnyNamespace().list().getItems()) {
      if (RunPhase.of(run) != RunPhase.RUNNING
          || SandboxGiveBack.of(run.getStatus()).withoutSandbox()
          || !statuses.interrupt(run, run.getStatus(), MESSAGE, now, pricing)) {
        continue;
      }
      client.resources(Run.class).resource(run).updateStatus();
      runs++;
    }
    if (pods > 0 || runs > 0) {
      LOG.info(
          "Restarted on a kept store: removed {} Pods of the previous process, ended {} running"
              + " runs as failed",
          pods,
          runs);
    }
  }
}
