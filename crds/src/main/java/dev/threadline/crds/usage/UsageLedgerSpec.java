package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** Whose month this ledger counts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UsageLedgerSpec {
  @JsonPropertyDescription("The calendar month counted, UTC, as yyyy-MM.")
  @Required
  @Pattern("^[0-9]{4}-[0-9]{2}$")
  private String period;

  @JsonPropertyDescription("The user the namespace belongs to.")
  private String userId;

  public String getPeriod() {
    return period;
  }

  public void setPeriod(String period) {
    this.period = period;
  }

  public String getUserId() {
    return userId;
  }

  public void setUserId(String userId) {
    this.userId = userId;
  }
}
