package dev.threadline.crds.usage;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/**
 * Token counts, the one type for them: what a run used ({@code Run.status.usage}), a ledger entry
 * (by extension), and the totals of a thread and a month's ledger ({@link UsageTotalsStatus}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TokenCounts {
  @JsonPropertyDescription("Input tokens.")
  @Min(0)
  private Long inputTokens;

  @JsonPropertyDescription("Output tokens.")
  @Min(0)
  private Long outputTokens;

  @JsonPropertyDescription("Input tokens served from the provider's prompt cache.")
  @Min(0)
  private Long cachedTokens;

  public TokenCounts() {}

  public TokenCounts(long inputTokens, long outputTokens, long cachedTokens) {
    this.inputTokens = inputTokens;
    this.outputTokens = outputTokens;
    this.cachedTokens = cachedTokens;
  }

  /** Zero of each; for sums. */
  public static TokenCounts zero() {
    return new TokenCounts(0, 0, 0);
  }

  /** These counts and {@code other}'s added up; a missing count is zero. */
  public TokenCounts plus(TokenCounts other) {
    if (other == null) {
      return new TokenCounts(input(), output(), cached());
    }
    return new TokenCounts(
        input() + other.input(), output() + other.output(), cached() + other.cached());
  }

  @JsonIgnore
  public long input() {
    return Objects.requireNonNullElse(inputTokens, 0L);
  }

  @JsonIgnore
  public long output() {
    return Objects.requireNonNullElse(outputTokens, 0L);
  }

  @JsonIgnore
  public long cached() {
    return Objects.requireNonNullElse(cachedTokens, 0L);
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

  @Override
  public boolean equals(Object other) {
    return other != null
        && other.getClass() == getClass()
        && other instanceof TokenCounts that
        && Objects.equals(inputTokens, that.inputTokens)
        && Objects.equals(outputTokens, that.outputTokens)
        && Objects.equals(cachedTokens, that.cachedTokens);
  }

  @Override
  public int hashCode() {
    return Objects.hash(inputTokens, outputTokens, cachedTokens);
  }
}
