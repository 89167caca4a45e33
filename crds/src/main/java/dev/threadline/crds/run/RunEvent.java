package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/** One entry of a run's ordered event log. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunEvent {
  @JsonPropertyDescription("Position in the run's event log, from 1, without gaps.")
  @Required
  @Min(1)
  private Long seq;

  @JsonPropertyDescription("Event type of the runner protocol, e.g. tool_call.")
  @Required
  private String type;

  @JsonPropertyDescription("When it happened (RFC 3339, UTC).")
  private String time;

  @JsonPropertyDescription("The event's payload.")
  private JsonNode data;

  public Long getSeq() {
    return seq;
  }

  public void setSeq(Long seq) {
    this.seq = seq;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public JsonNode getData() {
    return data;
  }

  public void setData(JsonNode data) {
    this.data = data;
  }
}
