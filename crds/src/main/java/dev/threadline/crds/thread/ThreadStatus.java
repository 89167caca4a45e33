package dev.threadline.crds.thread;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.usage.UsageTotalsStatus;
import io.fabric8.generator.annotation.Min;

/** The conversation's state and totals, rolled up from its Runs by the operator. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ThreadStatus extends UsageTotalsStatus {
  @JsonPropertyDescription("active, running, completed, failed or cancelled.")
  private String status;

  @JsonPropertyDescription("Name of the Run in progress, if any.")
  // Written even when null: a status merge patch must be able to clear it.
  @JsonInclude(JsonInclude.Include.ALWAYS)
  private String activeRun;

  @JsonPropertyDescription("User and assistant messages in the conversation.")
  @Min(0)
  private Long messageCount;

  @JsonPropertyDescription("When the status or totals last changed (RFC 3339, UTC).")
  private String updatedAt;

  @JsonPropertyDescription(
      "What the runs that left the Kubernetes API after their retention add to the totals (their"
          + " content is in the history store).")
  private ArchivedRuns archived;

  public ArchivedRuns getArchived() {
    return archived;
  }

  public void setArchived(ArchivedRuns archived) {
    this.archived = archived;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getActiveRun() {
    return activeRun;
  }

  public void setActiveRun(String activeRun) {
    this.activeRun = activeRun;
  }

  public Long getMessageCount() {
    return messageCount;
  }

  public void setMessageCount(Long messageCount) {
    this.messageCount = messageCount;
  }

  public String getUpdatedAt() {
    return updatedAt;
  }

  public void setUpdatedAt(String updatedAt) {
    this.updatedAt = updatedAt;
  }
}
