package dev.threadline.local.kubelet.controllers;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CronJob controller of local mode (batch/v1 CronJobs). Each CronJob has one timer set to its
 * next scheduled time and reset whenever the CronJob or one of its Jobs changes. The clock is
 * injectable so tests decide what time it is. See {@link CronJobSync}.
 */
public final class CronJobController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CronJobController.class);

  private final KubernetesClient client;
  private final ControllerWatches watches;

  public CronJobController(KubernetesClient client) {
    this(client, InstantSource.system());
  }

  public CronJobController(KubernetesClient client, InstantSource clock) {
    this.client = client;
    this.watches =
        new ControllerWatches("cronjob-controller", clock, new CronJobSync(client, clock)::sync);
  }

  public synchronized void start() {
    watches.watchOwn(client.batch().v1().cronjobs().inAnyNamespace());
    watches.watchChildren(client.batch().v1().jobs().inAnyNamespace(), "CronJob");
    LOG.info("cronjob controller started");
  }

  @Override
  public synchronized void close() {
    watches.close();
  }
}
