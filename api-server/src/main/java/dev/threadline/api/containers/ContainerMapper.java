package dev.threadline.api.containers;

import dev.threadline.core.containers.ContainerExpiry;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import dev.threadline.crds.container.ContainerSpec;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Converts the {@code Container} custom resource to its REST view. */
final class ContainerMapper {
  static final String ID_PREFIX = Container.ID_PREFIX;

  /** Creation time, then name: a stable order. */
  static final Comparator<Container> LIST_ORDER =
      Comparator.comparing(
              (Container c) -> createdAt(c).orElse(null),
              Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(c -> c.getMetadata().getName());

  private ContainerMapper() {}

  static ContainerView toView(Container container, String userId) {
    ContainerSpec spec = Optional.ofNullable(container.getSpec()).orElseGet(ContainerSpec::new);
    ContainerStatus status =
        Optional.ofNullable(container.getStatus()).orElseGet(ContainerStatus::new);
    boolean persistent = Boolean.TRUE.equals(spec.getPersistent());
    long timeoutMs =
        Objects.requireNonNullElse(spec.getTimeoutMs(), ContainerSpec.DEFAULT_TIMEOUT_MS);
    return new ContainerView(
        ResourceIds.toId(container.getMetadata().getName()),
        userId,
        phase(container).value(),
        status.getMessage(),
        spec.getEnvironment() == null ? null : ResourceIds.toId(spec.getEnvironment()),
        spec.getModel(),
        spec.getReasoning(),
        persistent,
        timeoutMs,
        spec.getMcpServers() == null
            ? List.of()
            : spec.getMcpServers().stream().map(ContainerMapper::mcpView).toList(),
        status.getPort(),
        status.getStart(),
        createdAt(container).map(Timestamps::format).orElse(null),
        ContainerExpiry.lastActivity(container).map(Timestamps::format).orElse(null),
        ContainerExpiry.expiresAt(container).map(Timestamps::format).orElse(null));
  }

  /** Being deleted reads as stopping, whatever the operator last wrote. */
  static ContainerPhase phase(Container container) {
    if (container.getMetadata().getDeletionTimestamp() != null) {
      return ContainerPhase.STOPPING;
    }
    return ContainerPhase.of(
        container.getStatus() == null ? null : container.getStatus().getPhase());
  }

  static Optional<Instant> createdAt(Container container) {
    return Timestamps.parse(container.getMetadata().getCreationTimestamp());
  }

  static ContainerView.McpServerView mcpView(McpServer server) {
    boolean http = McpServer.HTTP.equals(server.getType());
    return new ContainerView.McpServerView(
        server.getType(),
        server.getName(),
        http ? null : server.getCommand(),
        http ? null : List.copyOf(Objects.requireNonNullElse(server.getArgs(), List.of())),
        http ? server.getUrl() : null,
        http && server.getBearerTokenFrom() != null ? EnvironmentValues.MASK : null,
        !Boolean.FALSE.equals(server.getEnabled()),
        Objects.requireNonNullElse(
            server.getStartupTimeoutSec(), McpServer.DEFAULT_STARTUP_TIMEOUT_SEC),
        Objects.requireNonNullElse(server.getToolTimeoutSec(), McpServer.DEFAULT_TOOL_TIMEOUT_SEC));
  }
}
