package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.support.Describe;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the volume provisioner's {@code Delete} reclaim policy: when a PersistentVolumeClaim is
 * deleted, its host folder (a thread's workspace) goes with it.
 */
final class ClaimFolderReclaimer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClaimFolderReclaimer.class);

  private final KubernetesClient client;
  private final PodDirectories directories;
  private SharedIndexInformer<PersistentVolumeClaim> informer;

  ClaimFolderReclaimer(KubernetesClient client, PodDirectories directories) {
    this.client = client;
    this.directories = directories;
  }

  void start() {
    informer =
        client
            .persistentVolumeClaims()
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(PersistentVolumeClaim claim) {}

                  @Override
                  public void onUpdate(PersistentVolumeClaim before, PersistentVolumeClaim claim) {}

                  @Override
                  public void onDelete(PersistentVolumeClaim claim, boolean finalStateUnknown) {
                    reclaim(claim);
                  }
                },
                0);
  }

  private void reclaim(PersistentVolumeClaim claim) {
    Path folder =
        directories.claim(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
    // Off the informer thread: a large workspace takes a while to delete.
    Thread.ofVirtual()
        .name("reclaim-" + claim.getMetadata().getName())
        .start(() -> {
          try {
            PodDirectories.deleteRecursively(folder);
            LOG.info("{} deleted; removed its folder {}", Describe.of(claim), folder);
          } catch (RuntimeException e) {
            LOG.warn(
                "{} deleted, but its folder {} could not be removed",
                Describe.of(claim),
                folder,
                e);
          }
        });
  }

  @Override
  public void close() {
    if (informer != null) {
      informer.close();
    }
  }
}
