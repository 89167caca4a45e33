package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/**
 * An MCP server the agent may use: a local process ({@code stdio}) or a remote endpoint ({@code
 * http}). A bearer token is never in the spec, only where it lives.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "self.type != 'stdio' || has(self.command)",
    message = "a stdio MCP server needs a command")
@ValidationRule(
    value = "self.type != 'http' || has(self.url)",
    message = "an http MCP server needs a url")
public class McpServer {
  public static final String STDIO = "stdio";
  public static final String HTTP = "http";
  public static final int DEFAULT_STARTUP_TIMEOUT_SEC = 30;
  public static final int DEFAULT_TOOL_TIMEOUT_SEC = 60;
  public static final int MAX_STARTUP_TIMEOUT_SEC = 600;
  public static final int MAX_TOOL_TIMEOUT_SEC = 3600;

  @JsonPropertyDescription(
      "stdio (a process started in the agent's container) or http (a remote endpoint).")
  @Required
  @Pattern("^(stdio|http)$")
  private String type;

  @JsonPropertyDescription("Unique name within the environment; tools are announced under it.")
  @Required
  @Size(min = 1, max = 63)
  @Pattern(EnvironmentValues.MCP_NAME_PATTERN)
  private String name;

  @JsonPropertyDescription("stdio: the program to start.")
  @Size(min = 1, max = 1024)
  private String command;

  @JsonPropertyDescription("stdio: its arguments.")
  private List<String> args = new ArrayList<>();

  @JsonPropertyDescription("http: the endpoint, http:// or https://.")
  @Size(max = 2048)
  @Pattern(EnvironmentValues.HTTP_URL_PATTERN)
  private String url;

  @JsonPropertyDescription(
      "http: where the bearer token sent to the endpoint lives (a Secret key); none when absent.")
  private ValueSource bearerTokenFrom;

  @JsonPropertyDescription("Whether agent runs start this server.")
  @Default("true")
  private Boolean enabled = Boolean.TRUE;

  @JsonPropertyDescription("Seconds to wait for the server to start.")
  @Default("30")
  @Min(1)
  @Max(MAX_STARTUP_TIMEOUT_SEC)
  private Integer startupTimeoutSec = DEFAULT_STARTUP_TIMEOUT_SEC;

  @JsonPropertyDescription("Seconds one tool call may take.")
  @Default("60")
  @Min(1)
  @Max(MAX_TOOL_TIMEOUT_SEC)
  private Integer toolTimeoutSec = DEFAULT_TOOL_TIMEOUT_SEC;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getCommand() {
    return command;
  }

  public void setCommand(String command) {
    this.command = command;
  }

  public List<String> getArgs() {
    return args;
  }

  public void setArgs(List<String> args) {
    this.args = args;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public ValueSource getBearerTokenFrom() {
    return bearerTokenFrom;
  }

  public void setBearerTokenFrom(ValueSource bearerTokenFrom) {
    this.bearerTokenFrom = bearerTokenFrom;
  }

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public Integer getStartupTimeoutSec() {
    return startupTimeoutSec;
  }

  public void setStartupTimeoutSec(Integer startupTimeoutSec) {
    this.startupTimeoutSec = startupTimeoutSec;
  }

  public Integer getToolTimeoutSec() {
    return toolTimeoutSec;
  }

  public void setToolTimeoutSec(Integer toolTimeoutSec) {
    this.toolTimeoutSec = toolTimeoutSec;
  }
}
