package dev.threadline.api.containers;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The response bodies of the container endpoints. */
final class ContainerResponses {
  private ContainerResponses() {}

  /** {@code {container}}. */
  record Single(ContainerView container) {}

  /** {@code GET /:id/health}: whether the file API answers now. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Health(
      boolean healthy,
      String status,
      String containerId,
      Integer port,
      String checkedAt,
      String message) {}

  /** {@code GET /:id/logs}: the last lines of the container's log, oldest first. */
  record Logs(String containerId, int lines, List<String> logs) {}
}
