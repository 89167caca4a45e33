package dev.threadline.operator.schedule;

import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** Binds the trigger's ServiceAccount to the chart's trigger ClusterRole in its namespace. */
@KubernetesDependent(informer = @Informer(labelSelector = ScheduleTriggerAccount.SELECTOR))
public class ScheduleTriggerRoleBindingDependentResource
    extends ScheduleTriggerDependentResource<RoleBinding> {
  public static final String NAME = "schedule-trigger-role-binding";

  public ScheduleTriggerRoleBindingDependentResource() {
    super(RoleBinding.class);
  }

  @Override
  protected RoleBinding desired(Schedule schedule, Context<Schedule> context) {
    return ScheduleTriggerAccount.roleBinding(schedule.getMetadata().getNamespace());
  }
}
