package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.limits.SandboxLimits;
import dev.threadline.local.kubelet.limits.StorageWatch;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The disk bounds of one Pod, with the messages a cluster's kubelet evicts with: each emptyDir's
 * {@code sizeLimit}, the Pod's own folder (its writable root stand-in, home, logs and emptyDirs)
 * against the sum of its containers' {@code ephemeral-storage} limits, and each claim's folder
 * against the storage the claim requests (the quota a cluster's volume would have).
 */
final class PodStorageBounds {
  private PodStorageBounds() {}

  static StorageWatch of(
      Pod pod, Map<String, Path> hostVolumes, Path podFolder, KubernetesClient client) {
    List<StorageWatch.Bound> bounds = new ArrayList<>();
    for (Volume volume : list(pod.getSpec().getVolumes())) {
      Path folder = hostVolumes.get(volume.getName());
      if (folder == null) {
        continue;
      }
      if (volume.getEmptyDir() != null && volume.getEmptyDir().getSizeLimit() != null) {
        Quantity limit = volume.getEmptyDir().getSizeLimit();
        bounds.add(
            new StorageWatch.Bound(
                List.of(folder),
                bytes(limit),
                "Usage of EmptyDir volume \""
                    + volume.getName()
                    + "\" exceeds the limit \""
                    + limit
                    + "\". "));
      }
      if (volume.getPersistentVolumeClaim() != null) {
        String claim = volume.getPersistentVolumeClaim().getClaimName();
        requested(client, pod.getMetadata().getNamespace(), claim)
            .ifPresent(size ->
                bounds.add(
                    new StorageWatch.Bound(
                        List.of(folder),
                        bytes(size),
                        "Usage of PersistentVolumeClaim \""
                            + claim
                            + "\" exceeds its requested storage \""
                            + size
                            + "\" (local mode evicts where a volume would be full). ")));
      }
    }
    long total = 0;
    for (Container container : pod.getSpec().getContainers()) {
      long limit = SandboxLimits.of(container, 1, null).ephemeralBytes();
      if (limit == 0) {
        total = 0; // a container without a limit leaves the Pod without one
        break;
      }
      total += limit;
    }
    if (total > 0) {
      bounds.add(
          new StorageWatch.Bound(
              List.of(podFolder),
              total,
              "Pod ephemeral local storage usage exceeds the total limit of containers "
                  + total
                  + " bytes. "));
    }
    return new StorageWatch(bounds);
  }

  /** The claim's {@code spec.resources.requests.storage}; empty when it cannot be read. */
  private static Optional<Quantity> requested(
      KubernetesClient client, String namespace, String claim) {
    try {
      PersistentVolumeClaim found =
          client.persistentVolumeClaims().inNamespace(namespace).withName(claim).get();
      if (found == null
          || found.getSpec() == null
          || found.getSpec().getResources() == null
          || found.getSpec().getResources().getRequests() == null) {
        return Optional.empty();
      }
      return Optional.ofNullable(found.getSpec().getResources().getRequests().get("storage"));
    } catch (RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  private static long bytes(Quantity quantity) {
    java.math.BigDecimal amount = quantity.getNumericalAmount();
    return amount.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : Math.max(0, amount.longValue());
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }
}
