package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;

/** One run's figures as they were added to a ledger. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UsageEntry {
  @JsonPropertyDescription("Name of the Run.")
  private String run;

  @Min(0)
  private Long inputTokens;

  @Min(0)
  private Long outputTokens;

  @Min(0)
  private Long cachedTokens;

  @JsonPropertyDescription("Cost in USD.")
  @Min(0)
  private Double cost;

  public UsageEntry() {}

  public UsageEntry(
      String run, long inputTokens, long outputTokens, long cachedTokens, double cost) {
    this.run = run;
    this.inputTokens = inputTokens;
    this.outputTokens = outputTokens;
    this.cachedTokens = cachedTokens;
    this.cost = cost;
  }

  public String getRun() {
    return run;
  }

  public void setRun(String run) {
    this.run = run;
  }

  public Long getInputTokens() {
    return inputTokens;
  }

  public void setInputTokens(Long inputTokens) {
    this.inputTokens = inputTokens;
  }

  public Long getOutputTokens() {
    return outputTokens;
  }

  public void setOutputTokens(Long outputTokens) {
    this.outputTokens = outputTokens;
  }

  public Long getCachedTokens() {
    return cachedTokens;
  }

  public void setCachedTokens(Long cachedTokens) {
    this.cachedTokens = cachedTokens;
  }

  public Double getCost() {
    return cost;
  }

  public void setCost(Double cost) {
    this.cost = cost;
  }
}
