package dev.threadline.api.environments;

import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.webhooks.WebhookViews;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentPackages;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Converts between the {@code Environment} custom resource and its REST views. */
final class EnvironmentMapper {
  static final String ID_PREFIX = Environment.ID_PREFIX;

  /** Creation time, then name: a stable order even within one second of creation timestamps. */
  static final Comparator<Environment> LIST_ORDER =
      Comparator.comparing(
              EnvironmentMapper::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(environment -> environment.getMetadata().getName());

  private EnvironmentMapper() {}

  static EnvironmentView toView(Environment environment, String userId) {
    return toView(environment, userId, Map.of());
  }

  /** The view, showing the webhook secrets this write generated (by URL). */
  static EnvironmentView toView(
      Environment environment, String userId, Map<String, String> generatedSecrets) {
    EnvironmentSpec spec = spec(environment);
    EnvironmentStatus status =
        Optional.ofNullable(environment.getStatus()).orElseGet(EnvironmentStatus::new);
    EnvironmentPackages packages =
        Optional.ofNullable(spec.getPackages()).orElseGet(EnvironmentPackages::new);
    return new EnvironmentView(
        ResourceIds.toId(environment.getMetadata().getName()),
        userId,
        spec.getDisplayName(),
        spec.getDescription(),
        spec.getBaseImage(),
        spec.getDockerfileExtensions(),
        Optional.ofNullable(spec.getRuntimes())
            .map(LinkedHashMap::new)
            .orElseGet(LinkedHashMap::new),
        packagesView(packages),
        list(spec.getEnvironmentVariables()).stream()
            .map(v -> new EnvironmentView.VariableView(v.getKey(), EnvironmentValues.MASK))
            .toList(),
        list(spec.getSecrets()).stream()
            .map(s ->
                new EnvironmentView.SecretView(
                    s.getName(), s.getDescription(), EnvironmentValues.MASK))
            .toList(),
        list(spec.getSetupScripts()).stream()
            .map(s -> new EnvironmentView.SetupScriptView(s.getName(), s.getScript()))
            .toList(),
        list(spec.getMcpServers()).stream().map(EnvironmentMapper::mcpView).toList(),
        list(spec.getDocumentation()).stream()
            .map(d -> new EnvironmentView.DocumentView(d.getTitle(), d.getContent(), d.getUrl()))
            .toList(),
        !Boolean.FALSE.equals(spec.getInternetAccess()),
        buildStatus(environment).value(),
        status.getBuildHash(),
        status.getBuildError(),
        null,
        Timestamps.normalize(status.getLastBuildAt()),
        status.getImageTag(),
        isDefault(environment),
        isActive(environment),
        Timestamps.format(createdAt(environment)),
        Timestamps.format(RestResources.updatedAt(environment, createdAt(environment))),
        WebhookViews.of(spec.getWebhooks(), generatedSecrets),
        warmPoolView(spec, status));
  }

  private static EnvironmentView.WarmPoolView warmPoolView(
      EnvironmentSpec spec, EnvironmentStatus status) {
    int size =
        spec.getWarmPool() == null || spec.getWarmPool().getSize() == null
            ? 0
            : spec.getWarmPool().getSize();
    var observed = status.getWarmPool();
    return new EnvironmentView.WarmPoolView(
        size,
        observed == null || observed.getReady() == null ? 0 : observed.getReady(),
        observed == null || observed.getClaimed() == null ? 0 : observed.getClaimed(),
        observed == null ? null : observed.getImage());
  }

  static EnvironmentSummary toSummary(Environment environment) {
    return new EnvironmentSummary(
        ResourceIds.toId(environment.getMetadata().getName()),
        spec(environment).getDisplayName(),
        buildStatus(environment).value(),
        isDefault(environment),
        Timestamps.format(createdAt(environment)));
  }

  static EnvironmentView.PackagesView packagesView(EnvironmentPackages packages) {
    return new EnvironmentView.PackagesView(
        List.copyOf(list(packages.getSystem())),
        List.copyOf(list(packages.getPython())),
        List.copyOf(list(packages.getNode())));
  }

  /**
   * The build status a client should see: a build request the operator has not taken up yet is
   * already {@code building}, so that polling right after {@code POST .../build} never reads the
   * previous outcome.
   */
  static BuildStatus buildStatus(Environment environment) {
    if (hasPendingBuildRequest(environment)) {
      return BuildStatus.BUILDING;
    }
    return Optional.ofNullable(environment.getStatus())
        .map(EnvironmentStatus::getBuildStatus)
        .orElse(BuildStatus.PENDING);
  }

  static boolean hasPendingBuildRequest(Environment environment) {
    var request = spec(environment).getBuildRequest();
    String taken =
        environment.getStatus() == null ? null : environment.getStatus().getBuildRequestId();
    return request != null && request.getId() != null && !request.getId().equals(taken);
  }

  static boolean isBuilding(Environment environment) {
    return buildStatus(environment) == BuildStatus.BUILDING;
  }

  static boolean isDefault(Environment environment) {
    return Boolean.TRUE.equals(spec(environment).getIsDefault());
  }

  static boolean isActive(Environment environment) {
    return !Boolean.FALSE.equals(spec(environment).getIsActive());
  }

  /**
   * Whether a REST id can name this environment: one made with {@code kubectl} under another name
   * (no {@code env-} prefix) could be listed but never fetched, so it is not listed either.
   */
  static boolean hasRestId(Environment environment) {
    return RestResources.hasRestId(environment, ID_PREFIX);
  }

  /**
   * A new Environment of the REST API: built only when asked ({@code Manual}), as the contract has
   * a created environment {@code pending} until {@code POST .../build}.
   */
  static Environment newEnvironment(
      String namespace, String name, EnvironmentSpec spec, Instant now) {
    spec.setBuildPolicy(BuildPolicy.MANUAL);
    Environment environment = new Environment();
    environment.setMetadata(RestResources.newMetadata(namespace, name, now));
    environment.setSpec(spec);
    return environment;
  }

  static EnvironmentSpec spec(Environment environment) {
    return Objects.requireNonNullElseGet(environment.getSpec(), EnvironmentSpec::new);
  }

  static Instant createdAt(Environment environment) {
    return Timestamps.parse(environment.getMetadata().getCreationTimestamp()).orElse(null);
  }

  private static EnvironmentView.McpServerView mcpView(McpServer server) {
    boolean http = McpServer.HTTP.equals(server.getType());
    return new EnvironmentView.McpServerView(
        server.getType(),
        server.getName(),
        http ? null : server.getCommand(),
        http ? null : List.copyOf(list(server.getArgs())),
        http ? server.getUrl() : null,
        http && server.getBearerTokenFrom() != null ? EnvironmentValues.MASK : null,
        !Boolean.FALSE.equals(server.getEnabled()),
        Objects.requireNonNullElse(
            server.getStartupTimeoutSec(), McpServer.DEFAULT_STARTUP_TIMEOUT_SEC),
        Objects.requireNonNullElse(server.getToolTimeoutSec(), McpServer.DEFAULT_TOOL_TIMEOUT_SEC));
  }

  private static <T> List<T> list(List<T> items) {
    return items == null ? List.of() : items;
  }
}
