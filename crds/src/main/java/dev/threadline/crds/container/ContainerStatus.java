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

  /** {@link #start} of a container whose Pod came from its environment's warm pool. */
  public static final String START_CLAIMED = "claimed";

  /** {@link #start} of a container whose Pod was started for it. */
  public static final String START_COLD = "cold";

  @JsonPropertyDescription(
      "How the container got its Pod: claimed (from the environment's warm pool) or cold (started"
          + " for this container).")
  @Pattern("^(claimed|cold)$")
  private String start;

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

  public String getStart() {
    return start;
  }

  public void setStart(String start) {
    this.start = start;
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
