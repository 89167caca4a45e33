package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.controllers.CronJobController;
import dev.threadline.local.kubelet.controllers.JobController;
import dev.threadline.local.podlog.PodLogSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a cluster contributes besides its API, for local mode: the process kubelet and the Job and
 * CronJob controllers, started together against one client and stopped together (in reverse order)
 * by {@link #close()}. Garbage collection of owned objects is the embedded API's, as deletion
 * cascades are the control plane's on a cluster.
 */
public final class LocalCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

  private final ProcessKubelet kubelet;
  private final List<AutoCloseable> started;

  private LocalCluster(ProcessKubelet kubelet, List<AutoCloseable> started) {
    this.kubelet = kubelet;
    this.started = started;
  }

  public static LocalCluster start(
      KubernetesClient client, KubeletSettings settings, LocalImages images) {
    return start(client, settings, images, InstantSource.system());
  }

  /**
   * @param clock the CronJob and Job controllers' clock
   */
  public static LocalCluster start(
      KubernetesClient client, KubeletSettings settings, LocalImages images, InstantSource clock) {
    List<AutoCloseable> started = new ArrayList<>();
    try {
      ProcessKubelet kubelet = new ProcessKubelet(client, settings, images);
      kubelet.start();
      started.add(kubelet);
      JobController jobs = new JobController(client, clock);
      jobs.start();
      started.add(jobs);
      CronJobController cronJobs = new CronJobController(client, clock);
      cronJobs.start();
      started.add(cronJobs);
      return new LocalCluster(kubelet, started);
    } catch (RuntimeException e) {
      closeAll(started);
      throw e;
    }
  }

  /** The logs of the Pods the kubelet runs, for the embedded API's log endpoint. */
  public PodLogSource podLogs() {
    return kubelet;
  }

  public ProcessKubelet kubelet() {
    return kubelet;
  }

  @Override
  public void close() {
    closeAll(started);
  }

  private static void closeAll(List<AutoCloseable> started) {
    for (AutoCloseable part : started.reversed()) {
      try {
        part.close();
      } catch (Exception e) {
        LOG.warn("{} did not stop cleanly", part.getClass().getSimpleName(), e);
      }
    }
  }
}
