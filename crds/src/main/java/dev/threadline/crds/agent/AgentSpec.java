package dev.threadline.crds.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.webhook.WebhookEndpoint;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

/** The agent's configuration: model, provider and instructions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentSpec {
  @JsonPropertyDescription("Human-readable name of the agent.")
  @Size(max = 200)
  private String displayName;

  @JsonPropertyDescription(
      "Model provider: `scripted` (offline, deterministic), `openai` (any OpenAI-compatible"
          + " endpoint) or `anthropic`.")
  @Default("scripted")
  @Pattern("^(scripted|openai|anthropic)$")
  private String provider = "scripted";

  @JsonPropertyDescription(
      "Model name as the provider knows it, e.g. `gpt-4.1-mini` or `claude-sonnet-4-5`.")
  @Required
  @Size(min = 1, max = 200)
  private String model;

  @JsonPropertyDescription("System instructions given to the model on every run.")
  @Size(max = 65536)
  private String instructions;

  @JsonPropertyDescription(
      "Receivers of this resource's events, signed per Standard Webhooks. See docs/webhooks.md.")
  @Size(max = WebhookEndpoint.MAX_PER_RESOURCE)
  private List<WebhookEndpoint> webhooks = new ArrayList<>();

  @JsonPropertyDescription(
      "Which tool calls wait for a person's approval, and whether the model may ask questions"
          + " (ask_user). Absent: every call runs, as without approvals. See docs/approvals.md.")
  private ApprovalPolicy approvals;

  public String getDisplayName() {
    return displayName;
  }

  public void setDisplayName(String displayName) {
    this.displayName = displayName;
  }

  public String getProvider() {
    return provider;
  }

  public void setProvider(String provider) {
    this.provider = provider;
  }

  public String getModel() {
    return model;
  }

  public void setModel(String model) {
    this.model = model;
  }

  public String getInstructions() {
    return instructions;
  }

  public void setInstructions(String instructions) {
    this.instructions = instructions;
  }

  public List<WebhookEndpoint> getWebhooks() {
    return webhooks;
  }

  public void setWebhooks(List<WebhookEndpoint> webhooks) {
    this.webhooks = webhooks;
  }

  public ApprovalPolicy getApprovals() {
    return approvals;
  }

  public void setApprovals(ApprovalPolicy approvals) {
    this.approvals = approvals;
  }
}
