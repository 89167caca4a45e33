package dev.threadline.operator.schedule;

import dev.threadline.crds.schedule.Schedule;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the trigger's objects ({@link ScheduleTriggerAccount}): one per namespace, shared by its
 * recurring schedules, so owned by none of them and never deleted with one. Created when missing —
 * one deleted by hand is made again at the next reconcile of any schedule of its namespace, which
 * its deletion brings at once — and never updated (a RoleBinding's roleRef cannot change).
 */
abstract class ScheduleTriggerDependentResource<R extends HasMetadata>
    extends KubernetesDependentResource<R, Schedule> implements Creator<R, Schedule> {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleTriggerDependentResource.class);

  ScheduleTriggerDependentResource(Class<R> type) {
    super(type);
  }

  @Override
  public Optional<R> getSecondaryResource(Schedule schedule, Context<Schedule> context) {
    ResourceID id =
        new ResourceID(ScheduleTriggerAccount.NAME, schedule.getMetadata().getNamespace());
    return eventSource().flatMap(source -> source.get(id));
  }

  /** A change of the shared object concerns every schedule of its namespace. */
  @Override
  protected Optional<SecondaryToPrimaryMapper<R>> getSecondaryToPrimaryMapper(
      EventSourceContext<Schedule> context) {
    return Optional.of(object ->
        context
            .getPrimaryCache()
            .list(object.getMetadata().getNamespace())
            .map(ResourceID::fromResource)
            .collect(Collectors.toSet()));
  }

  /** Another schedule's reconcile may have just made it: then it is there, as wanted. */
  @Override
  public R create(R desired, Schedule schedule, Context<Schedule> context) {
    R made = IdempotentCreate.createOrGet(context.getClient(), desired);
    LOG.info(
        "{}({}/{}) there for schedule triggers",
        made.getKind(),
        made.getMetadata().getNamespace(),
        made.getMetadata().getName());
    return made;
  }
}
