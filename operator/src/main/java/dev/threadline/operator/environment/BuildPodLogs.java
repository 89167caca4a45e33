package dev.threadline.operator.environment;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log of a build Job's Pod through the Kubernetes API, bounded to its tail: the cause of
 * a failed build is at the end, and a status or ConfigMap must stay small.
 */
final class BuildPodLogs {
  private static final Logger LOG = LoggerFactory.getLogger(BuildPodLogs.class);

  /** The Job controller's label on the Pods of a Job. */
  static final String JOB_NAME_LABEL = "job-name";

  /** At most this many characters of a log are kept (the tail). */
  static final int MAX_LOG = 64 * 1024;

  private static final int TAIL_LINES = 5000;

  private final KubernetesClient client;

  BuildPodLogs(KubernetesClient client) {
    this.client = client;
  }

  /** The log of the Job's newest Pod, or empty when there is none or it cannot be read. */
  Optional<String> read(String namespace, String jobName) {
    try {
      Optional<Pod> pod =
          client
              .pods()
              .inNamespace(namespace)
              .withLabel(JOB_NAME_LABEL, jobName)
              .list()
              .getItems()
              .stream()
              .max(
                  Comparator.comparing(
                      p -> String.valueOf(p.getMetadata().getCreationTimestamp())));
      if (pod.isEmpty()) {
        return Optional.empty();
      }
      String log =
          client
              .pods()
              .inNamespace(namespace)
              .withName(pod.get().getMetadata().getName())
              .tailingLines(TAIL_LINES)
              .getLog();
      return Optional.ofNullable(log).map(BuildPodLogs::tail);
    } catch (KubernetesClientException e) {
      LOG.warn("Job({}/{}) cannot read its build log: {}", namespace, jobName, e.getMessage());
      return Optional.empty();
    }
  }

  /** The last {@link #MAX_LOG} characters, starting at a line boundary when one is near. */
  static String tail(String log) {
    if (log.length() <= MAX_LOG) {
      return log;
    }
    String tail = log.substring(log.length() - MAX_LOG);
    int newline = tail.indexOf('\n');
    return newline >= 0 && newline < 1024 ? tail.substring(newline + 1) : tail;
  }

  /** The last few non-blank lines: what buildError says when no known cause matches. */
  static String lastLines(String log, int lines) {
    var all = log.strip().lines().filter(line -> !line.isBlank()).toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
