package dev.threadline.local.podlog;

import java.util.Optional;

/**
 * Where the embedded Kubernetes API finds the logs of the Pods it serves. The process kubelet,
 * which runs those Pods, is the source.
 */
public interface PodLogSource {
  /**
   * The log of one container of a Pod; {@code container} may be null for "the only (or first)
   * container". Empty when that container has not started yet or does not exist.
   */
  Optional<PodLog> find(String namespace, String pod, String container);
}
