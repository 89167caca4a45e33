package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;

/** Tokens a run used. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunUsage {
  @Min(0)
  private Long inputTokens;

  @Min(0)
  private Long outputTokens;

  @JsonPropertyDescription("Input tokens served from the provider's prompt cache.")
  @Min(0)
  private Long cachedTokens;

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
}
