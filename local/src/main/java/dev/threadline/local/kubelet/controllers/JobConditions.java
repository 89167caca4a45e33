package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.support.KubeTime;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading and setting a Job's conditions, as the Job controller does. */
final class JobConditions {
  static final String COMPLETE = "Complete";
  static final String FAILED = "Failed";
  static final String SUCCESS_CRITERIA_MET = "SuccessCriteriaMet";
  static final String FAILURE_TARGET = "FailureTarget";
  static final String SUSPENDED = "Suspended";

  private JobConditions() {}

  static boolean isTrue(Job job, String type) {
    return find(job.getStatus(), type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  static boolean isFinished(Job job) {
    return isTrue(job, COMPLETE) || isTrue(job, FAILED);
  }

  static Optional<JobCondition> find(JobStatus status, String type) {
    if (status == null || status.getConditions() == null) {
      return Optional.empty();
    }
    return status.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** When the Job reached Complete or Failed, if it has. */
  static Optional<Instant> finishedAt(Job job) {
    if (job.getStatus() == null) {
      return Optional.empty();
    }
    if (isTrue(job, COMPLETE) && job.getStatus().getCompletionTime() != null) {
      return Optional.of(KubeTime.parse(job.getStatus().getCompletionTime()));
    }
    return find(job.getStatus(), isTrue(job, COMPLETE) ? COMPLETE : FAILED)
        .filter(c -> "True".equals(c.getStatus()))
        .map(c -> KubeTime.parse(c.getLastTransitionTime()));
  }

  /** Sets a condition; its transition time changes only when its status does. */
  static void set(
      JobStatus status, String type, boolean value, String reason, String message, Instant now) {
    List<JobCondition> conditions =
        status.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(status.getConditions());
    String text = value ? "True" : "False";
    Optional<JobCondition> current =
        conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    String transition =
        current
            .filter(c -> text.equals(c.getStatus()))
            .map(JobCondition::getLastTransitionTime)
            .orElse(KubeTime.format(now));
    String probe =
        current
            .filter(
                c -> text.equals(c.getStatus()) && java.util.Objects.equals(reason, c.getReason()))
            .map(JobCondition::getLastProbeTime)
            .orElse(KubeTime.format(now));
    JobCondition updated =
        new JobConditionBuilder()
            .withType(type)
            .withStatus(text)
            .withReason(reason)
            .withMessage(message)
            .withLastTransitionTime(transition)
            .withLastProbeTime(probe)
            .build();
    current.ifPresentOrElse(
        c -> conditions.set(conditions.indexOf(c), updated), () -> conditions.add(updated));
    status.setConditions(conditions);
  }
}
