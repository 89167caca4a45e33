package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/** The call a run waits on: a person is to approve it, or to answer the model's question. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunWait {
  public static final String APPROVAL = "approval";
  public static final String QUESTION = "question";

  @JsonPropertyDescription("The call's id, which POST /v1/threads/:id/approvals names.")
  @Size(max = RunAnswer.MAX_CALL_ID)
  private String callId;

  @JsonPropertyDescription("approval (a tool call waits to run) or question (ask_user).")
  @Pattern("^(approval|question)$")
  private String kind;

  @JsonPropertyDescription("The tool the call is for.")
  @Size(max = 256)
  private String tool;

  @JsonPropertyDescription(
      "Since when it waits (RFC 3339, UTC); the wait's timeout counts from it.")
  private String since;

  @JsonPropertyDescription(
      "Since when its sandbox is given back (RFC 3339, UTC): the wait went on longer than"
          + " THREADLINE_WORKER_INPUT_RELEASE_SECONDS, so the worker kept the workspace and the"
          + " sandbox Pod went; the run takes a sandbox again (from the warm pool when there is"
          + " one) when the call is answered or its wait times out.")
  private String sandboxGivenBack;

  public RunWait() {}

  public RunWait(String callId, String kind, String tool, String since) {
    this.callId = callId;
    this.kind = kind;
    this.tool = tool;
    this.since = since;
  }

  public String getCallId() {
    return callId;
  }

  public void setCallId(String callId) {
    this.callId = callId;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public String getTool() {
    return tool;
  }

  public void setTool(String tool) {
    this.tool = tool;
  }

  public String getSince() {
    return since;
  }

  public void setSince(String since) {
    this.since = since;
  }

  public String getSandboxGivenBack() {
    return sandboxGivenBack;
  }

  public void setSandboxGivenBack(String sandboxGivenBack) {
    this.sandboxGivenBack = sandboxGivenBack;
  }
}
