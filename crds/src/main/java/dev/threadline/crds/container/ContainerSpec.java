package dev.threadline.crds.container;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.environment.McpServer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * What the user asked for: where the container runs, how long it lives, and its agent
 * configuration.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ContainerSpec {
  public static final long DEFAULT_TIMEOUT_MS = 300_000L;
  public static final long MIN_TIMEOUT_MS = 1_000L;

  /** Seven days: an ephemeral container that should live longer is a persistent one. */
  public static final long MAX_TIMEOUT_MS = 604_800_000L;

  public static final int MAX_MCP_SERVERS = 50;

  @JsonPropertyDescription(
      "The Environment (metadata.name) whose image and values the container uses; the runner image"
          + " when absent.")
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
  @Size(max = 253)
  private String environment;

  @JsonPropertyDescription("Model of the container's agent configuration.")
  @Size(max = 200)
  private String model;

  @JsonPropertyDescription(
      "Reasoning effort of the container's agent configuration, e.g. low, medium, high.")
  @Size(max = 50)
  private String reasoning;

  @JsonPropertyDescription(
      "Kept until deleted, with a workspace claim that outlives the Pod; otherwise deleted after"
          + " timeoutMs without use.")
  @Default("false")
  private Boolean persistent = Boolean.FALSE;

  @JsonPropertyDescription(
      "Ephemeral containers: milliseconds without use (status.lastActivityAt) after which the"
          + " container is deleted.")
  @Default("300000")
  @Min(MIN_TIMEOUT_MS)
  @Max(MAX_TIMEOUT_MS)
  private Long timeoutMs = DEFAULT_TIMEOUT_MS;

  @JsonPropertyDescription(
      "MCP servers of the container's agent configuration; bearer tokens live in a Secret.")
  @Size(max = MAX_MCP_SERVERS)
  private List<McpServer> mcpServers = new ArrayList<>();

  public String getEnvironment() {
    return environment;
  }

  public void setEnvironment(String environment) {
    this.environment = environment;
  }

  public String getModel() {
    return model;
  }

  public void setModel(String model) {
    this.model = model;
  }

  public String getReasoning() {
    return reasoning;
  }

  public void setReasoning(String reasoning) {
    this.reasoning = reasoning;
  }

  public Boolean getPersistent() {
    return persistent;
  }

  public void setPersistent(Boolean persistent) {
    this.persistent = persistent;
  }

  public Long getTimeoutMs() {
    return timeoutMs;
  }

  public void setTimeoutMs(Long timeoutMs) {
    this.timeoutMs = timeoutMs;
  }

  public List<McpServer> getMcpServers() {
    return mcpServers;
  }

  public void setMcpServers(List<McpServer> mcpServers) {
    this.mcpServers = mcpServers == null ? new ArrayList<>() : mcpServers;
  }
}
