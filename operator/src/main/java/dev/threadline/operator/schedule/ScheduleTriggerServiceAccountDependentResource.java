package dev.threadline.operator.schedule;

import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** The ServiceAccount a recurring schedule's CronJob Pod runs as. */
@KubernetesDependent(informer = @Informer(labelSelector = ScheduleTriggerAccount.SELECTOR))
public class ScheduleTriggerServiceAccountDependentResource
    extends ScheduleTriggerDependentResource<ServiceAccount> {
  public static final String NAME = "schedule-trigger-service-account";

  public ScheduleTriggerServiceAccountDependentResource() {
    super(ServiceAccount.class);
  }

  @Override
  protected ServiceAccount desired(Schedule schedule, Context<Schedule> context) {
    return ScheduleTriggerAccount.serviceAccount(schedule.getMetadata().getNamespace());
  }
}
