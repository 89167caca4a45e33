package dev.threadline.operator.schedule;

import dev.threadline.crds.common.Labels;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import java.util.Map;

/**
 * The identity a recurring schedule's CronJob Pod runs as: a ServiceAccount {@value #NAME} in the
 * schedule's namespace, bound there to the {@value #CLUSTER_ROLE} ClusterRole (create Threads and
 * Runs, read Schedules) by a RoleBinding of the same name. One per namespace, shared by its
 * schedules, so owned by none of them: deleting a schedule leaves it for the others.
 */
final class ScheduleTriggerAccount {
  static final String NAME = "threadline-trigger";

  /** Installed by the Helm chart under this fixed name. */
  static final String CLUSTER_ROLE = "threadline-trigger";

  private static final String COMPONENT = "schedule-trigger";

  /** The label selector of the operator's informers of these objects. */
  static final String SELECTOR =
      Labels.MANAGED_BY + "=" + Labels.MANAGER + "," + AgentObjects.COMPONENT + "=" + COMPONENT;

  private static final Map<String, String> LABELS =
      Map.of(Labels.MANAGED_BY, Labels.MANAGER, AgentObjects.COMPONENT, COMPONENT);

  private ScheduleTriggerAccount() {}

  static ServiceAccount serviceAccount(String namespace) {
    return new ServiceAccountBuilder()
        .withNewMetadata()
        .withName(NAME)
        .withNamespace(namespace)
        .withLabels(LABELS)
        .endMetadata()
        .build();
  }

  static RoleBinding roleBinding(String namespace) {
    return new RoleBindingBuilder()
        .withNewMetadata()
        .withName(NAME)
        .withNamespace(namespace)
        .withLabels(LABELS)
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
        .build();
  }
}
