package dev.threadline.local.kubelet;

import dev.threadline.local.podlog.BufferedPodLog;
import dev.threadline.local.podlog.PodLog;
import dev.threadline.local.podlog.PodLogSource;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container logs of the Pods the kubelet runs, readable for as long as the Pod object exists. A
 * Pod that reuses a name replaces its predecessor's logs; removal is by uid, so a late removal of
 * the old Pod cannot drop the new one's.
 */
final class PodLogRegistry implements PodLogSource {
  private final Map<String, PodLogs> byPod = new ConcurrentHashMap<>();

  void register(Pod pod) {
    byPod.put(
        key(pod.getMetadata().getNamespace(), pod.getMetadata().getName()),
        new PodLogs(
            pod.getMetadata().getUid(),
            pod.getSpec().getContainers().getFirst().getName(),
            new ConcurrentHashMap<>()));
  }

  /** A new, empty log for a container that is starting. */
  BufferedPodLog open(Pod pod, String container) {
    PodLogs logs = byPod.get(key(pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
    BufferedPodLog log = new BufferedPodLog();
    if (logs != null && logs.uid.equals(pod.getMetadata().getUid())) {
      logs.containers.put(container, log);
    }
    return log;
  }

  void remove(String namespace, String pod, String uid) {
    byPod.computeIfPresent(key(namespace, pod), (key, logs) -> logs.uid.equals(uid) ? null : logs);
  }

  @Override
  public Optional<PodLog> find(String namespace, String pod, String container) {
    PodLogs logs = byPod.get(key(namespace, pod));
    if (logs == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        logs.containers.get(container == null ? logs.firstContainer : container));
  }

  private static String key(String namespace, String pod) {
    return namespace + "/" + pod;
  }

  private record PodLogs(String uid, String firstContainer, Map<String, PodLog> containers) {}
}
