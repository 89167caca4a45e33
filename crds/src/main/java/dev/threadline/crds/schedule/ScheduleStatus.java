package dev.threadline.crds.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;
import io.fabric8.generator.annotation.Min;

/** When the schedule fires next, and how its firings went (counted from the Runs it created). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScheduleStatus extends ResourceStatus {
  @JsonPropertyDescription(
      "Next firing, ISO 8601 UTC with Z; absent when disabled or when a one-time schedule has"
          + " fired.")
  // Written even when null: a status merge patch must be able to clear it.
  @JsonInclude(JsonInclude.Include.ALWAYS)
  private String nextRunAt;

  @JsonPropertyDescription("When the latest run the schedule created was created (ISO 8601 UTC).")
  private String lastRunAt;

  @JsonPropertyDescription("Runs the schedule created that still exist, in any phase.")
  @Min(0)
  private Long runCount;

  @JsonPropertyDescription("Of those, runs that completed.")
  @Min(0)
  private Long successCount;

  @JsonPropertyDescription("Of those, runs that failed or were cancelled.")
  @Min(0)
  private Long failureCount;

  @JsonPropertyDescription("Cost in USD of the runs the schedule spawned.")
  @Min(0)
  private Double totalCost;

  @JsonPropertyDescription(
      "One-time only: when the operator fired it. Set once; a fired schedule never fires again.")
  private String firedAt;

  @JsonPropertyDescription("One-time only: the Thread the firing created.")
  private String firedThread;

  @JsonPropertyDescription("Recurring only: the CronJob that fires the schedule.")
  private String cronJob;

  public String getNextRunAt() {
    return nextRunAt;
  }

  public void setNextRunAt(String nextRunAt) {
    this.nextRunAt = nextRunAt;
  }

  public String getLastRunAt() {
    return lastRunAt;
  }

  public void setLastRunAt(String lastRunAt) {
    this.lastRunAt = lastRunAt;
  }

  public Long getRunCount() {
    return runCount;
  }

  public void setRunCount(Long runCount) {
    this.runCount = runCount;
  }

  public Long getSuccessCount() {
    return successCount;
  }

  public void setSuccessCount(Long successCount) {
    this.successCount = successCount;
  }

  public Long getFailureCount() {
    return failureCount;
  }

  public void setFailureCount(Long failureCount) {
    this.failureCount = failureCount;
  }

  public String getFiredAt() {
    return firedAt;
  }

  public void setFiredAt(String firedAt) {
    this.firedAt = firedAt;
  }

  public String getFiredThread() {
    return firedThread;
  }

  public void setFiredThread(String firedThread) {
    this.firedThread = firedThread;
  }

  public String getCronJob() {
    return cronJob;
  }

  public void setCronJob(String cronJob) {
    this.cronJob = cronJob;
  }

  public Double getTotalCost() {
    return totalCost;
  }

  public void setTotalCost(Double totalCost) {
    this.totalCost = totalCost;
  }
}
