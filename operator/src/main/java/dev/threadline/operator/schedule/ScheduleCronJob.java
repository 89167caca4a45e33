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
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CronJob of a recurring schedule: at each firing its Pod runs the trigger image with {@code
 * --schedule <name>} as the namespace's trigger ServiceAccount. A hash of the spec is kept in an
 * annotation, for {@link ScheduleCronJobDependentResource} to compare (the API server fills the
 * live spec with defaults).
 */
final class ScheduleCronJob {
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
  private final Map<String, String> telemetry;
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  /**
   * @param threadLimit goes to the Pods, which check it before each firing makes a thread
   * @param telemetry the {@code OTEL_*} variables that make a Pod's firing span go where the
   *     operator's spans go ({@code Telemetry.childEnvironment}: no credentials)
   */
  ScheduleCronJob(String triggerImage, int threadLimit, Map<String, String> telemetry) {
    this.triggerImage = triggerImage;
    this.threadLimit = threadLimit;
    this.telemetry = telemetry;
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
    // Mutable: the framework adds its own annotation on create and update.
    cronJob.getMetadata().setAnnotations(new HashMap<>(Map.of(SPEC_HASH, hash(cronJob.getSpec()))));
    return cronJob;
  }

  private List<EnvVar> env() {
    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVar(ThreadLimit.VARIABLE, Integer.toString(threadLimit), null));
    env.addAll(
        List.of(
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
                .build()));
    telemetry.forEach((name, value) -> env.add(new EnvVar(name, value, null)));
    return env;
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
