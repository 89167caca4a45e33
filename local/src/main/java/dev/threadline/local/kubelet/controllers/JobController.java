package dev.threadline.local.kubelet.controllers;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job controller of local mode (batch/v1 Jobs), talking only through the client. Scope: one Pod
 * at a time, done after one success (parallelism and completions above 1, indexed Jobs, pod failure
 * policies and the exponential back-off between retries are not played). See {@link JobSync}.
 */
public final class JobController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobController.class);

  private final KubernetesClient client;
  private final ControllerWatches watches;

  public JobController(KubernetesClient client) {
    this(client, InstantSource.system());
  }

  public JobController(KubernetesClient client, InstantSource clock) {
    this.client = client;
    this.watches = new ControllerWatches("job-controller", clock, new JobSync(client, clock)::sync);
  }

  public synchronized void start() {
    watches.watchOwn(client.batch().v1().jobs().inAnyNamespace());
    watches.watchChildren(client.pods().inAnyNamespace(), "Job");
    LOG.info("job controller started");
  }

  @Override
  public synchronized void close() {
    watches.close();
  }
}
