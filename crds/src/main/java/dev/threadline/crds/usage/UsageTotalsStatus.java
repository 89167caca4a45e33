package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;
import io.fabric8.generator.annotation.Min;

/**
 * A status that adds up runs' spend: their {@link TokenCounts} and cost (a thread's, a month's
 * ledger). The token fields sit flat in the status, as the REST contract and the CRD schemas have
 * them; Java code reads and writes them as one {@link TokenCounts}. (Not a {@code @JsonUnwrapped}
 * field: fabric8's CRD generator wraps Jackson's property writers and would nest it.)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class UsageTotalsStatus extends ResourceStatus {
  @JsonPropertyDescription("Input tokens.")
  @JsonProperty
  @Min(0)
  private Long inputTokens;

  @JsonPropertyDescription("Output tokens.")
  @JsonProperty
  @Min(0)
  private Long outputTokens;

  @JsonPropertyDescription("Input tokens served from the provider's prompt cache.")
  @JsonProperty
  @Min(0)
  private Long cachedTokens;

  @JsonPropertyDescription("Total cost in USD.")
  @Min(0)
  private Double totalCost;

  /** The token totals (a copy: change them with {@link #setTokens}). */
  public TokenCounts tokens() {
    TokenCounts counts = new TokenCounts();
    counts.setInputTokens(inputTokens);
    counts.setOutputTokens(outputTokens);
    counts.setCachedTokens(cachedTokens);
    return counts;
  }

  @JsonIgnore
  public void setTokens(TokenCounts tokens) {
    this.inputTokens = tokens.getInputTokens();
    this.outputTokens = tokens.getOutputTokens();
    this.cachedTokens = tokens.getCachedTokens();
  }

  // Read-only views of the flat fields, for readers of one count; writes go through setTokens.

  public Long getInputTokens() {
    return inputTokens;
  }

  public Long getOutputTokens() {
    return outputTokens;
  }

  public Long getCachedTokens() {
    return cachedTokens;
  }

  public Double getTotalCost() {
    return totalCost;
  }

  public void setTotalCost(Double totalCost) {
    this.totalCost = totalCost;
  }
}
