package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A person's answer to a call the run waits on ({@code status.waitingFor}): a decision on an
 * approval, or the answer to a question. Kept in the spec, so whichever worker holds the run reads
 * it, also after a failover.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunAnswer {
  public static final String APPROVE = "approve";
  public static final String DENY = "deny";

  /** The answer {@code run}'s spec records for the call {@code callId}, if any. */
  public static Optional<RunAnswer> in(Run run, String callId) {
    List<RunAnswer> answers = run.getSpec() == null ? null : run.getSpec().getAnswers();
    return answers == null
        ? Optional.empty()
        : answers.stream()
            .filter(Objects::nonNull)
            .filter(answer -> callId.equals(answer.getCallId()))
            .findFirst();
  }

  public static final int MAX_CALL_ID = 128;
  public static final int MAX_MESSAGE = 2048;
  public static final int MAX_ANSWER = 4096;

  @JsonPropertyDescription("The call answered (status.waitingFor.callId).")
  @Required
  @Size(min = 1, max = MAX_CALL_ID)
  private String callId;

  @JsonPropertyDescription("approve or deny, for an approval.")
  @Pattern("^(approve|deny)$")
  private String decision;

  @JsonPropertyDescription("Why, told to the model with a denial.")
  @Size(max = MAX_MESSAGE)
  private String message;

  @JsonPropertyDescription("The answer to a question (ask_user): the tool's result.")
  @Size(max = MAX_ANSWER)
  private String answer;

  @JsonPropertyDescription("When it was answered (RFC 3339, UTC).")
  private String answeredAt;

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

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getAnswer() {
    return answer;
  }

  public void setAnswer(String answer) {
    this.answer = answer;
  }

  public String getAnsweredAt() {
    return answeredAt;
  }

  public void setAnsweredAt(String answeredAt) {
    this.answeredAt = answeredAt;
  }
}
