package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** What was asked: the message, its attachments and where it should run. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunSpec {
  @JsonPropertyDescription("Name of the Thread this run belongs to.")
  @Required
  @Size(min = 1, max = 253)
  private String thread;

  @JsonPropertyDescription("Position of this run in its thread, from 1.")
  @Min(1)
  private Long sequence;

  @JsonPropertyDescription("The user's message (the task).")
  @Required
  @Size(max = 1048576)
  private String message;

  /** The longest message a spec holds whole; a longer one is in the history store. */
  public static final int INLINE_MESSAGE = 4096;

  @JsonPropertyDescription(
      "Set when the message is longer than the spec holds: the id of its whole text in the"
          + " history store; message then holds its first 4096 characters.")
  @Size(max = 64)
  private String messageRef;

  @JsonPropertyDescription("Files given with the message; they reach the agent.")
  private List<Attachment> attachments;

  @JsonPropertyDescription("Name of the Agent, copied from the thread when the run was created.")
  private String agent;

  @JsonPropertyDescription(
      "Name of the Environment, copied from the thread when the run was created.")
  private String environment;

  @JsonPropertyDescription("Who asked: api or schedule.")
  @Pattern("^(api|schedule)$")
  private String source;

  @JsonPropertyDescription("Name of the Schedule that fired this run, if any.")
  private String schedule;

  @JsonPropertyDescription("Set to true to cancel the run.")
  private Boolean cancelRequested;

  @JsonPropertyDescription(
      "Set with cancelRequested when a newer message of the thread superseded the run (its"
          + " multitaskStrategy): `interrupt` keeps what the run did; `rollback` undoes it: its"
          + " workspace changes are reverted and, once ended, it is removed from the thread's"
          + " history.")
  @Pattern("^(interrupt|rollback)$")
  private String supersededBy;

  @JsonPropertyDescription(
      "True when the client asked for text as it is written (streamTokens): the replica that calls"
          + " the model serves deltas on its live channel (status.deltaChannel).")
  private Boolean streamTokens;

  /** The most answers a run may have: one per call that waited (kept in the history store). */
  public static final int MAX_ANSWERS = 100;

  @JsonPropertyDescription(
      "The latest answer to a call the run waited on (POST /v1/threads/:id/approvals): its callId,"
          + " decision and time; its texts, and the earlier answers, are in the history store.")
  private RunAnswer answer;

  public String getThread() {
    return thread;
  }

  public void setThread(String thread) {
    this.thread = thread;
  }

  public Long getSequence() {
    return sequence;
  }

  public void setSequence(Long sequence) {
    this.sequence = sequence;
  }

  public String getMessageRef() {
    return messageRef;
  }

  public void setMessageRef(String messageRef) {
    this.messageRef = messageRef;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public List<Attachment> getAttachments() {
    return attachments;
  }

  public void setAttachments(List<Attachment> attachments) {
    this.attachments = attachments;
  }

  public String getAgent() {
    return agent;
  }

  public void setAgent(String agent) {
    this.agent = agent;
  }

  public String getEnvironment() {
    return environment;
  }

  public void setEnvironment(String environment) {
    this.environment = environment;
  }

  public String getSource() {
    return source;
  }

  public void setSource(String source) {
    this.source = source;
  }

  public String getSchedule() {
    return schedule;
  }

  public void setSchedule(String schedule) {
    this.schedule = schedule;
  }

  public Boolean getCancelRequested() {
    return cancelRequested;
  }

  public void setCancelRequested(Boolean cancelRequested) {
    this.cancelRequested = cancelRequested;
  }

  public String getSupersededBy() {
    return supersededBy;
  }

  public void setSupersededBy(String supersededBy) {
    this.supersededBy = supersededBy;
  }

  /** Whether the run is to be undone: superseded by a {@code rollback} message. */
  public boolean rolledBack() {
    return MultitaskStrategy.ROLLBACK.value().equals(supersededBy);
  }

  public Boolean getStreamTokens() {
    return streamTokens;
  }

  public void setStreamTokens(Boolean streamTokens) {
    this.streamTokens = streamTokens;
  }

  public RunAnswer getAnswer() {
    return answer;
  }

  public void setAnswer(RunAnswer answer) {
    this.answer = answer;
  }
}
