package dev.threadline.operator.pool;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What one reconcile does to an environment's unclaimed pool Pods: remove those of another image
 * (the environment was rebuilt), those that ended, and those beyond the size (newest first, so the
 * ready ones stay); then create as many as are missing, within the cluster-wide headroom.
 *
 * @param remove Pods to delete
 * @param create how many new Pods to create
 */
public record PoolPlan(List<Pod> remove, int create) {

  /**
   * @param size how many unclaimed sandboxes the environment should have (0 for none)
   * @param image the environment's current image
   * @param unclaimed the environment's unclaimed pool Pods
   * @param headroom how many more unclaimed Pods the cluster-wide cap allows
   */
  public static PoolPlan of(int size, String image, List<Pod> unclaimed, int headroom) {
    List<Pod> remove = new ArrayList<>();
    List<Pod> keep = new ArrayList<>();
    for (Pod pod : unclaimed) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue; // already going
      }
      if (!image.equals(image(pod)) || ended(pod)) {
        remove.add(pod);
      } else {
        keep.add(pod);
      }
    }
    keep.sort(
        Comparator.comparing(
            (Pod pod) -> Objects.requireNonNullElse(pod.getMetadata().getCreationTimestamp(), "")));
    while (keep.size() > size) {
      remove.add(keep.removeLast());
    }
    int create = Math.max(0, Math.min(size - keep.size(), headroom));
    return new PoolPlan(List.copyOf(remove), create);
  }

  public static String image(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getContainers().isEmpty()
        ? null
        : pod.getSpec().getContainers().getFirst().getImage();
  }

  static boolean ended(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }
}
