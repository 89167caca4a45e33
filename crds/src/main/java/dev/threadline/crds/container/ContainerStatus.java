package dev.threadline.crds.container;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * What the operator observed, and when the container was last used. The operator writes everything
 * but {@code lastActivityAt}, which the api-server writes on use; each writes only its own fields.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ContainerStatus extends ResourceStatus {
  @JsonPropertyDescription("pending, starting, running, stopping or failed.")
  @Pattern("^(pending|starting|running|stopping|failed)$")
  private String phase;

  @JsonPropertyDescription("Why the container is in its phase, for people.")
  private String message;

  @JsonPropertyDescription(
      "The port the file API listens on, chosen by the operator from its container port range.")
  @Min(1)
  @Max(65535)
  private Integer port;

  @JsonPropertyDescription("Name of the container's Pod.")
  private String pod;

  @JsonPropertyDescription("IP address of the Pod, where the api-server reaches the file API.")
  private String podIP;

  @JsonPropertyDescription("The image the Pod runs.")
  private String image;

  @JsonPropertyDescription(
      "Last use through the API (ISO 8601 UTC); an ephemeral container expires timeoutMs after it.")
  private String lastActivityAt;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public Integer getPort() {
    return port;
  }

  public void setPort(Integer port) {
    this.port = port;
  }

  public String getPod() {
    return pod;
  }

  public void setPod(String pod) {
    this.pod = pod;
  }

  public String getPodIP() {
    return podIP;
  }

  public void setPodIP(String podIP) {
    this.podIP = podIP;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public String getLastActivityAt() {
    return lastActivityAt;
  }

  public void setLastActivityAt(String lastActivityAt) {
    this.lastActivityAt = lastActivityAt;
  }
}
