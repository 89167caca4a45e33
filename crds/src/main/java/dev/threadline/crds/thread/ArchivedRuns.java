package dev.threadline.crds.thread;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/**
 * What the thread's runs that left the Kubernetes API (after their retention) added to its totals:
 * their content is in the history store, and the thread's totals stay exact without them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArchivedRuns {
  @JsonPropertyDescription("How many of the thread's runs left the Kubernetes API.")
  @Min(0)
  private Long runs;

  @JsonPropertyDescription("Their user and assistant messages.")
  @Min(0)
  private Long messages;

  @JsonPropertyDescription("Their tokens.")
  private TokenCounts tokens;

  @JsonPropertyDescription("Their cost in USD.")
  @Min(0)
  private Double cost;

  @JsonPropertyDescription(
      "The sequence of the last of them: runs leave in order, so every run up to it has left.")
  @Min(0)
  private Long lastSequence;

  @JsonPropertyDescription(
      "The thread's state after the last of them (completed, failed or cancelled).")
  @Pattern("^(completed|failed|cancelled)$")
  private String lastState;

  public Long getRuns() {
    return runs;
  }

  public void setRuns(Long runs) {
    this.runs = runs;
  }

  public Long getMessages() {
    return messages;
  }

  public void setMessages(Long messages) {
    this.messages = messages;
  }

  public TokenCounts getTokens() {
    return tokens;
  }

  public void setTokens(TokenCounts tokens) {
    this.tokens = tokens;
  }

  public Double getCost() {
    return cost;
  }

  public void setCost(Double cost) {
    this.cost = cost;
  }

  public Long getLastSequence() {
    return lastSequence;
  }

  public void setLastSequence(Long lastSequence) {
    this.lastSequence = lastSequence;
  }

  public String getLastState() {
    return lastState;
  }

  public void setLastState(String lastState) {
    this.lastState = lastState;
  }

  /** The sequence below which (inclusive) every run has left; 0 when none has. */
  public static long lastSequenceOf(ArchivedRuns archived) {
    return archived == null ? 0 : Objects.requireNonNullElse(archived.getLastSequence(), 0L);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ArchivedRuns that
        && Objects.equals(runs, that.runs)
        && Objects.equals(messages, that.messages)
        && Objects.equals(tokens, that.tokens)
        && Objects.equals(cost, that.cost)
        && Objects.equals(lastSequence, that.lastSequence)
        && Objects.equals(lastState, that.lastState);
  }

  @Override
  public int hashCode() {
    return Objects.hash(runs, messages, tokens, cost, lastSequence, lastState);
  }
}
