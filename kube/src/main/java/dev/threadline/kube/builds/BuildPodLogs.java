package dev.threadline.kube.builds;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log of a build Job's Pod through the Kubernetes API, bounded to its tail: the cause of
 * a failed build is at the end, and a status, a ConfigMap or a REST answer must stay small. The
 * operator reads it when a build ends; the api-server while one runs.
 */
public final class BuildPodLogs {
  private static final Logger LOG = LoggerFactory.getLogger(BuildPodLogs.class);

  /** The Job controller's label on the Pods of a Job. */
  public static final String JOB_NAME_LABEL = "job-name";

  /**
   * The container of a build Pod where the image is built (an image build's Pod also has a push
   * step, so a log must name its container).
   */
  public static final String BUILD_CONTAINER = "kaniko";

  /** At most this many characters of a log are kept (the tail). */
  public static final int MAX_LOG = 64 * 1024;

  private static final int TAIL_LINES = 5000;

  private final KubernetesClient client;

  public BuildPodLogs(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The logs of the Job's newest Pod, its containers' one after the other (a Pod of several
   * containers has no log of its own), or empty when there is no Pod or no log can be read.
   */
  public Optional<String> read(String namespace, String jobName, List<String> containers) {
    try {
      Optional<Pod> pod = newestPod(namespace, jobName);
      if (pod.isEmpty()) {
        return Optional.empty();
      }
      StringBuilder log = new StringBuilder();
      boolean any = false;
      for (String container : containers) {
        Optional<String> part = containerLog(namespace, pod.get(), container);
        any |= part.isPresent();
        part.ifPresent(log::append);
      }
      return any ? Optional.of(tail(log.toString())) : Optional.empty();
    } catch (KubernetesClientException e) {
      LOG.warn("Job({}/{}) cannot read its build log: {}", namespace, jobName, e.getMessage());
      return Optional.empty();
    }
  }

  /** What a container of the Job's newest Pod left as its termination message, if anything. */
  public Optional<String> terminationMessage(String namespace, String jobName, String container) {
    try {
      return newestPod(namespace, jobName)
          .map(pod -> pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses())
          .flatMap(statuses ->
              statuses.stream()
                  .filter(status -> container.equals(status.getName()))
                  .map(status ->
                      status.getState() == null ? null : status.getState().getTerminated())
                  .filter(Objects::nonNull)
                  .map(ContainerStateTerminated::getMessage)
                  .filter(Objects::nonNull)
                  .findFirst());
    } catch (KubernetesClientException e) {
      LOG.warn("Job({}/{}) cannot read its Pod's status: {}", namespace, jobName, e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<Pod> newestPod(String namespace, String jobName) {
    return client
        .pods()
        .inNamespace(namespace)
        .withLabel(JOB_NAME_LABEL, jobName)
        .list()
        .getItems()
        .stream()
        .max(Comparator.comparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp())));
  }

  private Optional<String> containerLog(String namespace, Pod pod, String container) {
    try {
      return Optional.ofNullable(
          client
              .pods()
              .inNamespace(namespace)
              .withName(pod.getMetadata().getName())
              .inContainer(container)
              .tailingLines(TAIL_LINES)
              .getLog());
    } catch (KubernetesClientException e) {
      // A container that never started (the push step after a failed build) has no log.
      LOG.debug(
          "Pod({}/{}) container {} has no log: {}",
          namespace,
          pod.getMetadata().getName(),
          container,
          e.getMessage());
      return Optional.empty();
    }
  }

  /** The last {@link #MAX_LOG} characters, starting at a line boundary when one is near. */
  public static String tail(String log) {
    if (log.length() <= MAX_LOG) {
      return log;
    }
    String tail = log.substring(log.length() - MAX_LOG);
    int newline = tail.indexOf('\n');
    return newline >= 0 && newline < 1024 ? tail.substring(newline + 1) : tail;
  }

  /** The last few non-blank lines: what buildError says when no known cause matches. */
  public static String lastLines(String log, int lines) {
    var all = log.strip().lines().filter(line -> !line.isBlank()).toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
