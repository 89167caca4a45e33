package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the user declares about an environment. Values of variables and secrets never live here. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentSpec {
  @JsonPropertyDescription("Human-readable name (the contract's `name`).")
  @Required
  @Size(min = 1, max = 200)
  private String displayName;

  @JsonPropertyDescription("Optional description.")
  @Size(max = 2000)
  private String description;

  @JsonPropertyDescription("Custom base image; when absent the service's own base image is used.")
  @Size(max = 500)
  private String baseImage;

  @JsonPropertyDescription("Extra Dockerfile instructions, placed after runtime and package installation and before the entrypoint.")
  @Size(max = 65536)
  private String dockerfileExtensions;

  @JsonPropertyDescription("Language name to version, e.g. python: \"3.12\". Allowed values: GET /environments/runtimes/available.")
  private Map<String, String> runtimes = new LinkedHashMap<>();

  @JsonPropertyDescription("Packages installed into the image, by kind.")
  private EnvironmentPackages packages = new EnvironmentPackages();

  @JsonPropertyDescription("Whether agent Pods of this environment may reach the internet (beyond the model endpoint).")
  @Default("true")
  private Boolean internetAccess = Boolean.TRUE;

  @JsonPropertyDescription("Whether this is the user's default environment. At most one per namespace.")
  @Default("false")
  @JsonProperty("isDefault")
  private Boolean isDefault = Boolean.FALSE;

  @JsonPropertyDescription("False once soft-deleted; inactive environments are hidden from listings by default.")
  @Default("true")
  @JsonProperty("isActive")
  private Boolean isActive = Boolean.TRUE;

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
}
