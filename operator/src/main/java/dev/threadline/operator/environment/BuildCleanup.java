package dev.threadline.operator.environment;

import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the finished build Jobs (with their Pods), build-context ConfigMaps and build
 * NetworkPolicies of an Environment except the ones its status still names: the current or last
 * build and test build. Their logs live on in the build-logs ConfigMap.
 */
final class BuildCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(BuildCleanup.class);

  private final KubernetesClient client;

  BuildCleanup(KubernetesClient client) {
    this.client = client;
  }

  /**
   * @param jobs the Environment's build Jobs, as the operator's cache has them
   */
  void removeStale(Environment environment, Collection<Job> jobs, Set<String> keep) {
    String namespace = environment.getMetadata().getNamespace();
    String uid = environment.getMetadata().getUid();
    Set<String> running =
        jobs.stream()
            .filter(job -> !BuildJobState.of(job).isFinished())
            .map(job -> job.getMetadata().getName())
            .collect(Collectors.toSet());
    for (Job job : jobs) {
      String name = job.getMetadata().getName();
      if (!keep.contains(name) && !running.contains(name)) {
        delete(namespace, job);
      }
    }
    List<HasMetadata> companions = new ArrayList<>();
    companions.addAll(
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel(EnvironmentValues.BUILD_KIND_LABEL)
            .list()
            .getItems());
    companions.addAll(
        client
            .network()
            .v1()
            .networkPolicies()
            .inNamespace(namespace)
            .withLabel(EnvironmentValues.BUILD_KIND_LABEL)
            .list()
            .getItems());
    for (HasMetadata companion : companions) {
      String name = companion.getMetadata().getName();
      if (isOwnedBy(companion, uid) && !keep.contains(name) && !running.contains(name)) {
        delete(namespace, companion);
      }
    }
  }

  static boolean isOwnedBy(HasMetadata object, String uid) {
    return object.getMetadata().getOwnerReferences() != null
        && object.getMetadata().getOwnerReferences().stream()
            .anyMatch(owner -> uid.equals(owner.getUid()));
  }

  private void delete(String namespace, HasMetadata object) {
    try {
      client
          .resource(object)
          .inNamespace(namespace)
          .withPropagationPolicy(DeletionPropagation.BACKGROUND)
          .delete();
      LOG.debug(
          "{}({}/{}) deleted: an older build",
          object.getKind(),
          namespace,
          object.getMetadata().getName());
    } catch (KubernetesClientException e) {
      LOG.warn(
          "{}({}/{}) could not be deleted: {}",
          object.getKind(),
          namespace,
          object.getMetadata().getName(),
          e.getMessage());
    }
  }
}
