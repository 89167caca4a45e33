package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.support.Describe;
import dev.threadline.local.kubelet.support.StatusUpdates;
import dev.threadline.local.podlog.PodLog;
import dev.threadline.local.podlog.PodLogSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node of local mode: runs every Pod it sees, in any namespace, as host processes, and serves
 * their logs. It talks to the cluster only through a {@link KubernetesClient}, so it works against
 * any API server. Each Pod (by uid) is handled once, however often the informer reports it.
 */
public final class ProcessKubelet implements PodLogSource, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessKubelet.class);
  static final String KUBELET_RESTARTED = "KubeletRestarted";

  private final KubernetesClient client;
  private final KubeletSettings settings;
  private final LocalImages images;
  private final PodDirectories directories;
  private final PodLogRegistry logs = new PodLogRegistry();
  private final Set<String> handledUids = ConcurrentHashMap.newKeySet();
  private final Map<String, PodRunner> runners = new ConcurrentHashMap<>();
  private final ClaimFolderReclaimer reclaimer;
  private ScheduledExecutorService scheduler;
  private SharedIndexInformer<Pod> informer;

  public ProcessKubelet(KubernetesClient client, KubeletSettings settings, LocalImages images) {
    this.client = client;
    this.settings = settings;
    this.images = images;
    this.directories = new PodDirectories(settings.dataDir());
    this.reclaimer = new ClaimFolderReclaimer(client, directories);
  }

  /** Starts watching Pods (all namespaces) and runs every one not yet handled. */
  public synchronized void start() {
    if (informer != null) {
      throw new IllegalStateException("already started");
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("kubelet-deadlines").daemon().factory());
    informer =
        client
            .pods()
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod pod) {
                    consider(pod);
                  }

                  @Override
                  public void onUpdate(Pod before, Pod pod) {
                    consider(pod);
                  }

                  @Override
                  public void onDelete(Pod pod, boolean finalStateUnknown) {
                    forget(pod);
                  }
                },
                0);
    reclaimer.start();
    LOG.info("process kubelet started; data in {}", settings.dataDir());
  }

  @Override
  public Optional<PodLog> find(String namespace, String pod, String container) {
    return logs.find(namespace, pod, container);
  }

  /**
   * Stops watching and ends every process it started: SIGTERM, then SIGKILL after the grace period.
   */
  @Override
  public synchronized void close() {
    if (informer != null) {
      informer.close();
    }
    reclaimer.close();
    List<PodRunner> all = List.copyOf(runners.values());
    all.forEach(runner -> runner.stop(PodRunner.Stop.SHUTDOWN));
    try {
      CompletableFuture.allOf(all.stream().map(PodRunner::done).toArray(CompletableFuture[]::new))
          .get(settings.terminationGrace().toMillis() + 3000, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("some Pods' processes had not ended when the kubelet stopped");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.warn("a Pod ended with an error while the kubelet stopped", e);
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    LOG.info("process kubelet stopped");
  }

  private void consider(Pod pod) {
    String uid = pod.getMetadata().getUid();
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      handledUids.add(uid);
      PodRunner runner = runners.get(uid);
      if (runner != null) {
        runner.stop(PodRunner.Stop.DELETED);
      }
      return;
    }
    if (!handledUids.add(uid)) {
      PodRunner running = runners.get(uid);
      if (running != null) {
        running.specChanged(pod);
      }
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (PodStatusTracker.PHASE_SUCCEEDED.equals(phase)
        || PodStatusTracker.PHASE_FAILED.equals(phase)) {
      return;
    }
    if (PodStatusTracker.PHASE_RUNNING.equals(phase)) {
      // Its processes belonged to an earlier kubelet and are gone: running it again could repeat an
      // agent's work.
      Thread.ofVirtual().start(() -> markLost(pod));
      return;
    }
    PodRunner runner = new PodRunner(pod, client, settings, images, directories, logs, scheduler);
    logs.register(pod);
    runners.put(uid, runner);
    Thread.ofVirtual()
        .name("pod-" + pod.getMetadata().getNamespace() + "-" + pod.getMetadata().getName())
        .start(runner::run);
  }

  private void forget(Pod pod) {
    String uid = pod.getMetadata().getUid();
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    handledUids.add(uid);
    logs.remove(namespace, name, uid);
    PodRunner runner = runners.remove(uid);
    if (runner == null) {
      return;
    }
    runner.stop(PodRunner.Stop.DELETED);
    runner.done().thenRun(() -> removeFiles(namespace, name));
  }

  /** A deleted Pod's volumes (Secret files included) go; its logs stay on disk. */
  private void removeFiles(String namespace, String name) {
    boolean nameReused = runners.values().stream().anyMatch(r -> r.is(namespace, name));
    if (nameReused) {
      return;
    }
    try {
      PodDirectories.deleteRecursively(directories.volumes(namespace, name));
      PodDirectories.deleteRecursively(directories.tmp(namespace, name));
      PodDirectories.deleteRecursively(directories.rootfs(namespace, name));
      PodDirectories.deleteRecursively(directories.home(namespace, name));
    } catch (RuntimeException e) {
      LOG.warn("{} files could not all be removed", Describe.of("Pod", namespace, name), e);
    }
  }

  private void markLost(Pod pod) {
    StatusUpdates.update(
        client,
        Pod.class,
        pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(),
        pod.getMetadata().getUid(),
        latest -> {
          if (latest.getStatus() == null
              || !PodStatusTracker.PHASE_RUNNING.equals(latest.getStatus().getPhase())) {
            return false;
          }
          latest.getStatus().setPhase(PodStatusTracker.PHASE_FAILED);
          latest.getStatus().setReason(KUBELET_RESTARTED);
          latest
              .getStatus()
              .setMessage("the local kubelet restarted while this Pod ran; its processes are gone");
          return true;
        });
    LOG.info("{} was running under an earlier kubelet; marked Failed", Describe.of(pod));
  }
}
