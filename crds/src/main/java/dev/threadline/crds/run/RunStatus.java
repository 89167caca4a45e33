package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;
import dev.threadline.crds.usage.TokenCounts;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * How the run went, as the control plane keeps it: route, phase, usage, a preview of the answer and
 * counters; its events, diffs and whole answer are in the history store.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunStatus extends ResourceStatus {
  @JsonPropertyDescription("pending, running, completed, failed or cancelled.")
  @Pattern("^(pending|running|completed|failed|cancelled)$")
  private String phase;

  @JsonPropertyDescription("direct (one model call) or computer (an agent Pod).")
  @Pattern("^(direct|computer)$")
  private String route;

  @JsonPropertyDescription("Why the router chose the route.")
  private String routeReason;

  @JsonPropertyDescription("The model that answered.")
  private String model;

  @JsonPropertyDescription("The assistant's final answer.")
  private String response;

  @JsonPropertyDescription("What the agent did, one line each (commands run, files changed).")
  private List<String> actions;

  @JsonPropertyDescription("Tokens used.")
  private TokenCounts usage;

  @JsonPropertyDescription("Cost in USD.")
  @Min(0)
  private Double cost;

  @JsonPropertyDescription("From start to end, in milliseconds.")
  @Min(0)
  private Long durationMs;

  @JsonPropertyDescription("When execution started (RFC 3339, UTC).")
  private String startedAt;

  @JsonPropertyDescription("When it ended (RFC 3339, UTC).")
  private String completedAt;

  @JsonPropertyDescription("Why it failed.")
  private RunError error;

  @JsonPropertyDescription("Name of the agent Pod (computer route).")
  private String pod;

  /** {@link #start} of a run whose sandbox came from its environment's warm pool. */
  public static final String START_CLAIMED = "claimed";

  /** {@link #start} of a run whose sandbox was started for it. */
  public static final String START_COLD = "cold";

  @JsonPropertyDescription(
      "How the computer route got its sandbox: claimed (from the environment's warm pool) or cold"
          + " (started for this run).")
  @Pattern("^(claimed|cold)$")
  private String start;

  /** The most characters of the answer {@link #response} previews. */
  public static final int RESPONSE_PREVIEW = 1024;

  /** The most lines {@link #actions} keeps, and the most characters of each. */
  public static final int MAX_ACTIONS = 20;

  public static final int MAX_ACTION_LENGTH = 256;

  @JsonPropertyDescription(
      "The number of the run's last event (events are numbered from 1 without gaps). The events"
          + " themselves, in full, are in the history store: GET /v1/threads/:id/stream and /logs.")
  @Min(0)
  private Long lastEventSeq;

  @JsonPropertyDescription(
      "How many files the run created, modified or deleted (the diffs are in the history store:"
          + " GET /v1/threads/:id/diffs).")
  @Min(0)
  private Long diffCount;

  @JsonPropertyDescription(
      "Where the replica that now calls the model for this run serves its text deltas (only with"
          + " spec.streamTokens): the URL of one live session on its internal HTTP port. Deltas are"
          + " ephemeral and never written to the Run.")
  @Size(max = 512)
  private String deltaChannel;

  @JsonPropertyDescription(
      "Set by the operator once the run's usage is counted in its month's UsageLedger.")
  private Boolean usageRecorded;

  @JsonPropertyDescription(
      "True once the webhook deliveries of this run's final state exist (or none was configured).")
  private Boolean webhooksQueued;

  @JsonPropertyDescription(
      "Set while the run waits for a person (an approval or an answer to the model's question);"
          + " the WaitingForInput condition says the same.")
  private RunWait waitingFor;

  public Long getLastEventSeq() {
    return lastEventSeq;
  }

  public void setLastEventSeq(Long lastEventSeq) {
    this.lastEventSeq = lastEventSeq;
  }

  public Long getDiffCount() {
    return diffCount;
  }

  public void setDiffCount(Long diffCount) {
    this.diffCount = diffCount;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getRoute() {
    return route;
  }

  public void setRoute(String route) {
    this.route = route;
  }

  public String getRouteReason() {
    return routeReason;
  }

  public void setRouteReason(String routeReason) {
    this.routeReason = routeReason;
  }

  public String getModel() {
    return model;
  }

  public void setModel(String model) {
    this.model = model;
  }

  public String getResponse() {
    return response;
  }

  public void setResponse(String response) {
    this.response = response;
  }

  public List<String> getActions() {
    return actions;
  }

  public void setActions(List<String> actions) {
    this.actions = actions;
  }

  public TokenCounts getUsage() {
    return usage;
  }

  public void setUsage(TokenCounts usage) {
    this.usage = usage;
  }

  public Double getCost() {
    return cost;
  }

  public void setCost(Double cost) {
    this.cost = cost;
  }

  public Long getDurationMs() {
    return durationMs;
  }

  public void setDurationMs(Long durationMs) {
    this.durationMs = durationMs;
  }

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }

  public String getCompletedAt() {
    return completedAt;
  }

  public void setCompletedAt(String completedAt) {
    this.completedAt = completedAt;
  }

  public RunError getError() {
    return error;
  }

  public void setError(RunError error) {
    this.error = error;
  }

  public String getPod() {
    return pod;
  }

  public void setPod(String pod) {
    this.pod = pod;
  }

  public String getStart() {
    return start;
  }

  public void setStart(String start) {
    this.start = start;
  }

  public Boolean getUsageRecorded() {
    return usageRecorded;
  }

  public void setUsageRecorded(Boolean usageRecorded) {
    this.usageRecorded = usageRecorded;
  }

  public Boolean getWebhooksQueued() {
    return webhooksQueued;
  }

  public void setWebhooksQueued(Boolean webhooksQueued) {
    this.webhooksQueued = webhooksQueued;
  }

  public String getDeltaChannel() {
    return deltaChannel;
  }

  public void setDeltaChannel(String deltaChannel) {
    this.deltaChannel = deltaChannel;
  }

  public RunWait getWaitingFor() {
    return waitingFor;
  }

  public void setWaitingFor(RunWait waitingFor) {
    this.waitingFor = waitingFor;
  }
}
