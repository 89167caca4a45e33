package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Optional;

/**
 * The latest answer a person gave to a call the run waits on ({@code status.waitingFor}): which
 * call, the decision on an approval, and when. What a worker acts on, and all a Run keeps of it:
 * the texts (a denial's message, a question's answer) are in the history store, recorded there
 * before this is written, so whichever worker replica sees it reads them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunAnswer {
  public static final String APPROVE = "approve";
  public static final String DENY = "deny";

  /** The answer {@code run}'s spec holds for the call {@code callId}, if it is that call's. */
  public static Optional<RunAnswer> in(Run run, String callId) {
    RunAnswer answer = run.getSpec() == null ? null : run.getSpec().getAnswer();
    return answer != null && callId.equals(answer.getCallId())
        ? Optional.of(answer)
        : Optional.empty();
  }

  public static final int MAX_CALL_ID = 128;
  public static final int MAX_MESSAGE = 2048;
  public static final int MAX_ANSWER = 4096;

  @JsonPropertyDescription("The call answered (status.waitingFor.callId).")
  @Required
  @Size(min = 1, max = MAX_CALL_ID)
  private String callId;

  @JsonPropertyDescription(
      "approve or deny, for an approval; absent for a question's answer. The texts are in the"
          + " history store.")
  @Pattern("^(approve|deny)$")
  private String decision;

  @JsonPropertyDescription("When it was answered (RFC 3339, UTC).")
  @Size(max = 64)
  private String answeredAt;

  public RunAnswer() {}

  public RunAnswer(String callId, String decision, String answeredAt) {
    this.callId = callId;
    this.decision = decision;
    this.answeredAt = answeredAt;
  }

  public String getCallId() {
    return callId;
  }

  public void setCallId(String callId) {
    this.callId = callId;
  }

  public String getDecision() {
    return decision;
  }

  public void setDecision(String decision) {
    this.decision = decision;
  }

  public String getAnsweredAt() {
    return answeredAt;
  }

  public void setAnsweredAt(String answeredAt) {
    this.answeredAt = answeredAt;
  }
}
