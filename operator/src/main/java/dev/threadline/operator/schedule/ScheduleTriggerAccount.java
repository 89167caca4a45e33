package dev.threadline.operator.schedule;

import dev.threadline.crds.common.Labels;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity a recurring schedule's CronJob Pod runs as: a ServiceAccount {@value #NAME} in the
 * schedule's namespace, bound there to the {@value #CLUSTER_ROLE} ClusterRole (create Threads and
 * Runs, read Schedules) by a RoleBinding of the same name. One per namespace, shared by its
 * schedules, so owned by none of them: deleting a schedule leaves it for the others.
 */
final class ScheduleTriggerAccount {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleTriggerAccount.class);
  static final String NAME = "threadline-trigger";

  /** Installed by the Helm chart under this fixed name. */
  static final String CLUSTER_ROLE = "threadline-trigger";

  /**
   * Namespaces already provisioned by this process: two creates per namespace, not per reconcile.
   */
  private final Set<String> ensured = ConcurrentHashMap.newKeySet();

  void ensure(KubernetesClient client, String namespace) {
    if (ensured.contains(namespace)) {
      return;
    }
    Map<String, String> labels = Map.of(Labels.MANAGED_BY, Labels.MANAGER);
    createIfAbsent(
        client,
        new ServiceAccountBuilder()
            .withNewMetadata()
            .withName(NAME)
            .withNamespace(namespace)
            .withLabels(labels)
            .endMetadata()
            .build());
    createIfAbsent(
        client,
        new RoleBindingBuilder()
            .withNewMetadata()
            .withName(NAME)
            .withNamespace(namespace)
            .withLabels(labels)
            .endMetadata()
            .withNewRoleRef()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("ClusterRole")
            .withName(CLUSTER_ROLE)
            .endRoleRef()
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(NAME)
            .withNamespace(namespace)
            .endSubject()
            .build());
    ensured.add(namespace);
  }

  private static void createIfAbsent(KubernetesClient client, HasMetadata object) {
    if (IdempotentCreate.createUnlessExists(client, object)) {
      LOG.info(
          "{}({}/{}) created for schedule triggers",
          object.getKind(),
          object.getMetadata().getNamespace(),
          NAME);
    }
  }
}
