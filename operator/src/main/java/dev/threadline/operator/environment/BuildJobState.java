package dev.threadline.operator.environment;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.List;
import java.util.Optional;

/** Where a build Job stands, read from its status the way the Job controller writes it. */
enum BuildJobState {
  RUNNING,
  SUCCEEDED,
  FAILED,
  /** Failed because {@code activeDeadlineSeconds} passed: the contract's {@code Build timeout}. */
  TIMED_OUT;

  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";

  static BuildJobState of(Job job) {
    var status = job.getStatus();
    if (status == null) {
      return RUNNING;
    }
    List<JobCondition> conditions =
        status.getConditions() == null ? List.of() : status.getConditions();
    if (isTrue(conditions, "Complete")
        || (status.getSucceeded() != null && status.getSucceeded() > 0)) {
      return SUCCEEDED;
    }
    Optional<JobCondition> failed =
        find(conditions, "Failed").filter(c -> "True".equals(c.getStatus()));
    if (failed.isPresent()) {
      return DEADLINE_EXCEEDED.equals(failed.get().getReason()) ? TIMED_OUT : FAILED;
    }
    // backoffLimit is 0: one failed Pod fails the build, even before the condition is written.
    return status.getFailed() != null && status.getFailed() > 0 ? FAILED : RUNNING;
  }

  boolean isFinished() {
    return this != RUNNING;
  }

  private static boolean isTrue(List<JobCondition> conditions, String type) {
    return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  private static Optional<JobCondition> find(List<JobCondition> conditions, String type) {
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }
}
