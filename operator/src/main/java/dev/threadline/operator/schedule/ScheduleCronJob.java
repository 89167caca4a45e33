package dev.threadline.operator.schedule;

import dev.threadline.core.hashing.Sha256;
import dev.threadline.core.limits.ThreadLimit;
import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.core.schedule.FiringNames;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.common.ThreadlineGroup;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.trigger.TriggerPod;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CronJob of a recurring schedule: at each firing its Pod runs the trigger image with {@code
 * --schedule <name>} as the namespace's trigger ServiceAccount. The operator compares a hash of the
 * spec it wants (kept in an annotation) rather than the live spec, which the API server fills with
 * defaults.
 */
final class ScheduleCronJob {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleCronJob.class);
  static final String SPEC_HASH = ThreadlineGroup.GROUP + "/spec-hash";

  /** A firing that could not start within this long (operator or control plane down) is skipped. */
  static final long STARTING_DEADLINE_SECONDS = 300;

  static final int SUCCESSFUL_HISTORY = 3;
  static final int FAILED_HISTORY = 3;

  /** The trigger makes two API calls; anything longer is stuck. */
  static final long ACTIVE_DEADLINE_SECONDS = 120;

  static final int BACKOFF_LIMIT = 2;

  /** A non-root user any image can run as (the distroless "nonroot" id). */
  static final long RUN_AS_USER = 65532;

  private final String triggerImage;
  private final int threadLimit;
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  /** {@code threadLimit} goes to the Pods, which check it before each firing makes a thread. */
  ScheduleCronJob(String triggerImage, int threadLimit) {
    this.triggerImage = triggerImage;
    this.threadLimit = threadLimit;
  }

  /** Creates or updates the CronJob; {@code current} is the one the informer has, if any. */
  void reconcile(
      KubernetesClient client, Schedule schedule, CronSchedule cron, Optional<CronJob> current) {
    CronJob desired = desired(schedule, cron);
    String hash = desired.getMetadata().getAnnotations().get(SPEC_HASH);
    if (current.isEmpty()) {
      client.resource(desired).create();
      logWritten(schedule, cron, desired, "created");
      return;
    }
    Map<String, String> annotations = current.get().getMetadata().getAnnotations();
    if (annotations != null && Objects.equals(annotations.get(SPEC_HASH), hash)) {
      return;
    }
    desired.getMetadata().setResourceVersion(current.get().getMetadata().getResourceVersion());
    client.resource(desired).update();
    logWritten(schedule, cron, desired, "updated");
  }

  private static void logWritten(
      Schedule schedule, CronSchedule cron, CronJob desired, String written) {
    LOG.info(
        "Schedule({}/{}) CronJob {} {} (\"{}\" in {}, suspend={})",
        namespace(schedule),
        name(schedule),
        desired.getMetadata().getName(),
        written,
        cron.expression(),
        cron.zone(),
        desired.getSpec().getSuspend());
  }

  /** Removes the CronJob of a schedule that is no longer recurring. */
  void delete(KubernetesClient client, CronJob current) {
    client.resource(current).delete();
    LOG.info(
        "CronJob({}/{}) deleted: its schedule is no longer recurring",
        current.getMetadata().getNamespace(),
        current.getMetadata().getName());
  }

  CronJob desired(Schedule schedule, CronSchedule cron) {
    String scheduleName = name(schedule);
    Map<String, String> labels =
        Map.of(Labels.SCHEDULE, scheduleName, Labels.MANAGED_BY, Labels.MANAGER);
    CronJob cronJob =
        new CronJobBuilder()
            .withNewMetadata()
            .withName(FiringNames.cronJobName(scheduleName))
            .withNamespace(namespace(schedule))
            .withLabels(labels)
            .withOwnerReferences(OwnerReferences.controller(schedule))
            .endMetadata()
            .withNewSpec()
            .withSchedule(cron.expression())
            .withTimeZone(cron.zone().getId())
            .withSuspend(!Schedules.isEnabled(schedule))
            .withConcurrencyPolicy("Forbid")
            .withStartingDeadlineSeconds(STARTING_DEADLINE_SECONDS)
            .withSuccessfulJobsHistoryLimit(SUCCESSFUL_HISTORY)
            .withFailedJobsHistoryLimit(FAILED_HISTORY)
            .withNewJobTemplate()
            .withNewMetadata()
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withBackoffLimit(BACKOFF_LIMIT)
            .withActiveDeadlineSeconds(ACTIVE_DEADLINE_SECONDS)
            .withNewTemplate()
            .withNewMetadata()
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withRestartPolicy("Never")
            .withServiceAccountName(ScheduleTriggerAccount.NAME)
            // The one Threadline Pod with Kubernetes credentials; agent Pods get none.
            .withAutomountServiceAccountToken(true)
            .withNewSecurityContext()
            .withRunAsNonRoot(true)
            .withRunAsUser(RUN_AS_USER)
            .withNewSeccompProfile()
            .withType("RuntimeDefault")
            .endSeccompProfile()
            .endSecurityContext()
            .addNewContainer()
            .withName("trigger")
            .withImage(triggerImage)
            .withArgs(TriggerPod.SCHEDULE_OPTION, scheduleName)
            .withEnv(env())
            .withNewResources()
            .withRequests(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("128Mi")))
            .withLimits(Map.of("memory", new Quantity("256Mi")))
            .endResources()
            .withNewSecurityContext()
            .withAllowPrivilegeEscalation(false)
            .withNewCapabilities()
            .withDrop("ALL")
            .endCapabilities()
            .endSecurityContext()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .endJobTemplate()
            .endSpec()
            .build();
    cronJob.getMetadata().setAnnotations(Map.of(SPEC_HASH, hash(cronJob.getSpec())));
    return cronJob;
  }

  private List<EnvVar> env() {
    return List.of(
        new EnvVar(ThreadLimit.VARIABLE, Integer.toString(threadLimit), null),
        new EnvVarBuilder()
            .withName(TriggerPod.NAMESPACE_VARIABLE)
            .withNewValueFrom()
            .withNewFieldRef()
            .withFieldPath("metadata.namespace")
            .endFieldRef()
            .endValueFrom()
            .build(),
        new EnvVarBuilder()
            .withName(TriggerPod.JOB_NAME_VARIABLE)
            .withNewValueFrom()
            .withNewFieldRef()
            .withFieldPath("metadata.labels['" + TriggerPod.JOB_NAME_LABEL + "']")
            .endFieldRef()
            .endValueFrom()
            .build());
  }

  private String hash(CronJobSpec spec) {
    return Sha256.hex(serialization.asJson(spec)).substring(0, 32);
  }

  private static String name(Schedule schedule) {
    return schedule.getMetadata().getName();
  }

  private static String namespace(Schedule schedule) {
    return schedule.getMetadata().getNamespace();
  }
}
