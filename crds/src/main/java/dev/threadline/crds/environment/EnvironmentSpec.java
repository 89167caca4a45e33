package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.webhook.WebhookEndpoint;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the user declares about an environment. Values of variables, secrets and MCP bearer tokens
 * never live here: see {@link EnvironmentValues}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value =
        "!has(self.environmentVariables) || self.environmentVariables.all(v,"
            + " self.environmentVariables.filter(o, o.key == v.key).size() == 1)",
    message = "environment variable keys must be unique")
@ValidationRule(
    value =
        "!has(self.secrets) || self.secrets.all(v, self.secrets.filter(o, o.name == v.name).size()"
            + " == 1)",
    message = "secret names must be unique")
@ValidationRule(
    value =
        "!has(self.mcpServers) || self.mcpServers.all(v, self.mcpServers.filter(o, o.name =="
            + " v.name).size() == 1)",
    message = "MCP server names must be unique")
public class EnvironmentSpec {

  @JsonPropertyDescription(
      "Receivers of this resource's events, signed per Standard Webhooks. See docs/webhooks.md.")
  @Size(max = WebhookEndpoint.MAX_PER_RESOURCE)
  private List<WebhookEndpoint> webhooks = new ArrayList<>();

  public static final int MAX_VARIABLES = 200;
  public static final int MAX_SECRETS = 100;
  public static final int MAX_SETUP_SCRIPTS = 50;
  public static final int MAX_MCP_SERVERS = 50;
  public static final int MAX_DOCUMENTS = 50;

  @JsonPropertyDescription("Human-readable name (the contract's `name`).")
  @Required
  @Size(min = 1, max = 200)
  private String displayName;

  @JsonPropertyDescription("Optional description.")
  @Size(max = 2000)
  private String description;

  @JsonPropertyDescription(
      "Custom base image ([registry/]name[:tag][@digest]); when absent the service's own base image"
          + " is used.")
  @Size(max = 500)
  @Pattern("^[^\\s]+$")
  private String baseImage;

  @JsonPropertyDescription(
      "Extra Dockerfile instructions, placed after runtime and package installation and before the"
          + " entrypoint.")
  @Size(max = 65536)
  private String dockerfileExtensions;

  @JsonPropertyDescription(
      "Language name to version, e.g. python: \"3.12\". Allowed values: GET"
          + " /environments/runtimes/available.")
  private Map<String, String> runtimes = new LinkedHashMap<>();

  @JsonPropertyDescription("Packages installed into the image, by kind.")
  private EnvironmentPackages packages = new EnvironmentPackages();

  @JsonPropertyDescription(
      "Environment variables of agent runs: names only; values are in a Secret.")
  @Size(max = MAX_VARIABLES)
  private List<EnvironmentVariable> environmentVariables = new ArrayList<>();

  @JsonPropertyDescription(
      "Secrets given to agent runs as environment variables: names and descriptions only; values"
          + " are in a Secret.")
  @Size(max = MAX_SECRETS)
  private List<EnvironmentSecret> secrets = new ArrayList<>();

  @JsonPropertyDescription(
      "Scripts run at image build time, in order, after packages and dockerfileExtensions.")
  @Size(max = MAX_SETUP_SCRIPTS)
  private List<EnvironmentSetupScript> setupScripts = new ArrayList<>();

  @JsonPropertyDescription("MCP servers the agent may use.")
  @Size(max = MAX_MCP_SERVERS)
  private List<McpServer> mcpServers = new ArrayList<>();

  @JsonPropertyDescription("Documentation given to the agent as context: inline text or links.")
  @Size(max = MAX_DOCUMENTS)
  private List<EnvironmentDocument> documentation = new ArrayList<>();

  @JsonPropertyDescription(
      "When the image is built: OnChange (the default) whenever the image of the current spec is"
          + " not built yet, as a Deployment rolls out a changed spec; Manual only when"
          + " buildRequest.id changes.")
  @Default("OnChange")
  private BuildPolicy buildPolicy = BuildPolicy.ON_CHANGE;

  @JsonPropertyDescription(
      "Set a new id to ask the operator for an image build (with either buildPolicy; force"
          + " rebuilds an image already built).")
  private BuildRequest buildRequest;

  @JsonPropertyDescription(
      "Set a new id to ask for a test build (no cache, no push); the outcome is in"
          + " status.testBuild.")
  private TestBuildRequest testBuildRequest;

  @JsonPropertyDescription(
      "Whether agent Pods of this environment may reach the internet (beyond the model endpoint).")
  @Default("true")
  private Boolean internetAccess = Boolean.TRUE;

  @JsonPropertyDescription(
      "Whether this is the user's default environment. At most one per namespace.")
  @Default("false")
  @JsonProperty("isDefault")
  private Boolean isDefault = Boolean.FALSE;

  @JsonPropertyDescription(
      "False once soft-deleted; inactive environments are hidden from listings by default.")
  @Default("true")
  @JsonProperty("isActive")
  private Boolean isActive = Boolean.TRUE;

  @JsonPropertyDescription(
      "Ready sandboxes kept for this environment's computer runs to claim; absent or size 0: none.")
  private WarmPool warmPool;

  public String getDisplayName() {
    return displayName;
  }

  public void setDisplayName(String displayName) {
    this.displayName = displayName;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public String getBaseImage() {
    return baseImage;
  }

  public void setBaseImage(String baseImage) {
    this.baseImage = baseImage;
  }

  public String getDockerfileExtensions() {
    return dockerfileExtensions;
  }

  public void setDockerfileExtensions(String dockerfileExtensions) {
    this.dockerfileExtensions = dockerfileExtensions;
  }

  public Map<String, String> getRuntimes() {
    return runtimes;
  }

  public void setRuntimes(Map<String, String> runtimes) {
    this.runtimes = runtimes;
  }

  public EnvironmentPackages getPackages() {
    return packages;
  }

  public void setPackages(EnvironmentPackages packages) {
    this.packages = packages;
  }

  public List<EnvironmentVariable> getEnvironmentVariables() {
    return environmentVariables;
  }

  public void setEnvironmentVariables(List<EnvironmentVariable> environmentVariables) {
    this.environmentVariables = environmentVariables;
  }

  public List<EnvironmentSecret> getSecrets() {
    return secrets;
  }

  public void setSecrets(List<EnvironmentSecret> secrets) {
    this.secrets = secrets;
  }

  public List<EnvironmentSetupScript> getSetupScripts() {
    return setupScripts;
  }

  public void setSetupScripts(List<EnvironmentSetupScript> setupScripts) {
    this.setupScripts = setupScripts;
  }

  public List<McpServer> getMcpServers() {
    return mcpServers;
  }

  public void setMcpServers(List<McpServer> mcpServers) {
    this.mcpServers = mcpServers;
  }

  public List<EnvironmentDocument> getDocumentation() {
    return documentation;
  }

  public void setDocumentation(List<EnvironmentDocument> documentation) {
    this.documentation = documentation;
  }

  public BuildPolicy getBuildPolicy() {
    return buildPolicy;
  }

  public void setBuildPolicy(BuildPolicy buildPolicy) {
    this.buildPolicy = buildPolicy;
  }

  public BuildRequest getBuildRequest() {
    return buildRequest;
  }

  public void setBuildRequest(BuildRequest buildRequest) {
    this.buildRequest = buildRequest;
  }

  public TestBuildRequest getTestBuildRequest() {
    return testBuildRequest;
  }

  public void setTestBuildRequest(TestBuildRequest testBuildRequest) {
    this.testBuildRequest = testBuildRequest;
  }

  public Boolean getInternetAccess() {
    return internetAccess;
  }

  public void setInternetAccess(Boolean internetAccess) {
    this.internetAccess = internetAccess;
  }

  @JsonProperty("isDefault")
  public Boolean getIsDefault() {
    return isDefault;
  }

  @JsonProperty("isDefault")
  public void setIsDefault(Boolean isDefault) {
    this.isDefault = isDefault;
  }

  @JsonProperty("isActive")
  public Boolean getIsActive() {
    return isActive;
  }

  @JsonProperty("isActive")
  public void setIsActive(Boolean isActive) {
    this.isActive = isActive;
  }

  public WarmPool getWarmPool() {
    return warmPool;
  }

  public void setWarmPool(WarmPool warmPool) {
    this.warmPool = warmPool;
  }

  public List<WebhookEndpoint> getWebhooks() {
    return webhooks;
  }

  public void setWebhooks(List<WebhookEndpoint> webhooks) {
    this.webhooks = webhooks;
  }
}
