package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/** One run's tokens and cost as they were added to a ledger. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UsageEntry extends TokenCounts {
  @JsonPropertyDescription("Name of the Run.")
  private String run;

  @JsonPropertyDescription("Cost in USD.")
  @Min(0)
  private Double cost;

  public UsageEntry() {}

  public UsageEntry(String run, TokenCounts tokens, double cost) {
    super(tokens.input(), tokens.output(), tokens.cached());
    this.run = run;
    this.cost = cost;
  }

  public String getRun() {
    return run;
  }

  public void setRun(String run) {
    this.run = run;
  }

  public Double getCost() {
    return cost;
  }

  public void setCost(Double cost) {
    this.cost = cost;
  }

  @Override
  public boolean equals(Object other) {
    return super.equals(other)
        && other instanceof UsageEntry that
        && Objects.equals(run, that.run)
        && Objects.equals(cost, that.cost);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), run, cost);
  }
}
