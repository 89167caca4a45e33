package dev.threadline.operator.schedule;

import dev.threadline.core.schedule.FiringNames;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recurring schedule's CronJob ({@link ScheduleCronJob} builds it; the reconciler puts it into
 * the context, see {@link #want}). It is compared by the hash of the spec the operator wants, kept
 * in an annotation, rather than by the live spec, which the API server fills with defaults.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.SCHEDULE))
public class ScheduleCronJobDependentResource
    extends CRUDKubernetesDependentResource<CronJob, Schedule> {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleCronJobDependentResource.class);
  public static final String NAME = "schedule-cronjob";

  public ScheduleCronJobDependentResource() {
    super(CronJob.class);
  }

  /** The CronJob this reconcile wants, for the workflow it then invokes. */
  static void want(Context<Schedule> context, CronJob desired) {
    context.managedWorkflowAndDependentResourceContext().put(NAME, desired);
  }

  @Override
  protected CronJob desired(Schedule schedule, Context<Schedule> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(NAME, CronJob.class);
  }

  /** Named after its schedule: found (and deleted) without building the CronJob it would be. */
  @Override
  protected ResourceID targetSecondaryResourceID(Schedule schedule, Context<Schedule> context) {
    return new ResourceID(
        FiringNames.cronJobName(schedule.getMetadata().getName()),
        schedule.getMetadata().getNamespace());
  }

  @Override
  public Matcher.Result<CronJob> match(
      CronJob actual, Schedule schedule, Context<Schedule> context) {
    CronJob desired = desired(schedule, context);
    Map<String, String> annotations = actual.getMetadata().getAnnotations();
    return Matcher.Result.computed(
        annotations != null
            && Objects.equals(
                annotations.get(ScheduleCronJob.SPEC_HASH),
                desired.getMetadata().getAnnotations().get(ScheduleCronJob.SPEC_HASH)),
        desired);
  }

  @Override
  public CronJob create(CronJob desired, Schedule schedule, Context<Schedule> context) {
    return logged(super.create(desired, schedule, context), "created");
  }

  @Override
  public CronJob update(
      CronJob actual, CronJob desired, Schedule schedule, Context<Schedule> context) {
    return logged(super.update(actual, desired, schedule, context), "updated");
  }

  private static CronJob logged(CronJob written, String how) {
    LOG.info(
        "CronJob({}/{}) {} (\"{}\" in {}, suspend={})",
        written.getMetadata().getNamespace(),
        written.getMetadata().getName(),
        how,
        written.getSpec().getSchedule(),
        written.getSpec().getTimeZone(),
        written.getSpec().getSuspend());
    return written;
  }
}
