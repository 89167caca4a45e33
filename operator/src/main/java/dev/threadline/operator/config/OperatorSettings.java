package dev.threadline.operator.config;

import dev.threadline.core.environment.ImageDefaults;
import dev.threadline.core.limits.ThreadLimit;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.container.ContainerSettings;
import dev.threadline.operator.deltas.DeltaSettings;
import dev.threadline.operator.environment.BuildPodSettings;
import dev.threadline.operator.kubernetes.ReconcileRetry;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.retention.RetentionSettings;
import dev.threadline.operator.webhooks.WebhookSettings;
import dev.threadline.operator.worker.WorkerSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Everything the operator can be told, read once at start-up. In a cluster the values come from
 * environment variables (set by the Helm chart); the local launcher builds them directly.
 *
 * @param watchNamespaces namespaces to watch; empty means all
 * @param runnerImage the image with the runner, used for agent Pods and containers
 * @param triggerImage the schedule trigger's image (trigger/Dockerfile), run by recurring
 *     schedules' CronJobs
 * @param baseImage the default base image of environments
 * @param builderImage the Kaniko image that builds environment images
 * @param registry where environment images are pushed, e.g. {@code registry.example.com/threadline}
 * @param registryPushSecret name of a docker-config Secret for pushing; empty for none
 * @param buildTimeout longest an image build may take
 * @param leaderElection whether to elect a leader (one active replica)
 * @param leaseNamespace namespace of the leader-election Lease
 * @param healthPort port of /healthz, /readyz and /metrics; 0 for any free port, negative for none
 * @param model the default model and the provider credentials (THREADLINE_MODEL_*)
 * @param modelPrices per-model token prices, {@code model=input/output/cached} USD per million
 *     tokens
 * @param agentPod size, deadline and workspace of agent Pods (THREADLINE_AGENT_*,
 *     THREADLINE_WORKSPACE_*)
 * @param containers ports of the containers' file APIs (THREADLINE_CONTAINER_*)
 * @param usagePlans tiers and monthly allowances (THREADLINE_USAGE_TIERS,
 *     THREADLINE_USAGE_DEFAULT_TIER)
 * @param webhooks private targets, retries and retention of webhook deliveries
 *     (THREADLINE_WEBHOOK_*)
 * @param worker how this replica runs agent loops, and its name in their claims
 *     (THREADLINE_WORKER_*)
 * @param network the cluster's ranges that untrusted Pods must not reach
 *     (THREADLINE_CLUSTER_*_CIDRS)
 * @param buildPods size, allowed images and egress of build Pods (THREADLINE_BUILD_*)
 * @param threadLimit how many threads a user may hold; schedule firings over it make none
 *     (THREADLINE_LIMITS_THREADS)
 * @param deltas the live channel of runs that asked for streamTokens (THREADLINE_DELTAS_*)
 * @param history bounds on what a run puts in the history store (THREADLINE_TOOL_OUTPUT_LIMIT,
 *     THREADLINE_WORKSPACE_ARCHIVE_LIMIT)
 * @param reconcileThreads how many reconciles run at once, all controllers together ({@value
 *     #RECONCILE_THREADS_VARIABLE}, default {@value #DEFAULT_RECONCILE_THREADS}, 1 to {@value
 *     #MAX_RECONCILE_THREADS}): virtual threads, bounded so that a start over many stored objects
 *     queues them instead of opening a connection for each
 * @param retryFirstWait how long a failed reconcile waits before its first retry; each later wait
 *     is twice the one before, at most 5 minutes ({@value ReconcileRetry#FIRST_WAIT_VARIABLE},
 *     milliseconds, default 1000, from 10 to 300000)
 */
public record OperatorSettings(
    Set<String> watchNamespaces,
    String runnerImage,
    String triggerImage,
    String baseImage,
    String builderImage,
    String registry,
    String registryPushSecret,
    Duration buildTimeout,
    boolean leaderElection,
    String leaseNamespace,
    int healthPort,
    ModelSettings model,
    String modelPrices,
    AgentPodSettings agentPod,
    ContainerSettings containers,
    UsagePlans usagePlans,
    WebhookSettings webhooks,
    WorkerSettings worker,
    ClusterNetwork network,
    BuildPodSettings buildPods,
    int threadLimit,
    DeltaSettings deltas,
    RetentionSettings retention,
    HistoryLimits history,
    int reconcileThreads,
    Duration retryFirstWait) {

  public static final String RECONCILE_THREADS_VARIABLE = "THREADLINE_OPERATOR_RECONCILE_THREADS";
  public static final int DEFAULT_RECONCILE_THREADS = 64;
  public static final int MAX_RECONCILE_THREADS = 1024;

  /** A maintained fork: the original GoogleContainerTools/kaniko is archived. */
  public static final String DEFAULT_BUILDER_IMAGE = "ghcr.io/osscontainertools/kaniko:v1.25.0";

  /** The trigger's image (trigger/Dockerfile) of this release. */
  public static final String DEFAULT_TRIGGER_IMAGE = "ghcr.io/threadline/trigger:0.1.0";

  public OperatorSettings {
    watchNamespaces = Set.copyOf(watchNamespaces);
    agentPod = agentPod == null ? AgentPodSettings.defaults() : agentPod;
    containers = containers == null ? ContainerSettings.defaults() : containers;
    usagePlans = usagePlans == null ? UsagePlans.defaults() : usagePlans;
    webhooks = webhooks == null ? WebhookSettings.defaults() : webhooks;
    worker = worker == null ? WorkerSettings.fromEnvironment(Map.of()) : worker;
    network = network == null ? ClusterNetwork.none() : network;
    buildPods = buildPods == null ? BuildPodSettings.defaults() : buildPods;
    deltas = deltas == null ? DeltaSettings.off() : deltas;
    retention = retention == null ? RetentionSettings.defaults() : retention;
    history = history == null ? HistoryLimits.defaults() : history;
    if (buildTimeout.isNegative() || buildTimeout.isZero()) {
      throw new IllegalArgumentException("buildTimeout must be positive");
    }
    if (reconcileThreads < 1 || reconcileThreads > MAX_RECONCILE_THREADS) {
      throw new IllegalArgumentException(
          RECONCILE_THREADS_VARIABLE
              + " must be from 1 to "
              + MAX_RECONCILE_THREADS
              + ", got: "
              + reconcileThreads);
    }
  }

  /** Defaults for a single-process run: all namespaces, no leader election, no health port. */
  public static OperatorSettings defaults() {
    return fromEnvironment(Map.of());
  }

  /** Reads the THREADLINE_* variables (see the Helm chart's values) with documented defaults. */
  public static OperatorSettings fromEnvironment(Map<String, String> env) {
    Function<String, String> get = key -> blankToNull(env.get(key));
    return new OperatorSettings(
        csv(get.apply("THREADLINE_WATCH_NAMESPACES")),
        or(get.apply("THREADLINE_RUNNER_IMAGE"), ImageDefaults.RUNNER_IMAGE),
        or(get.apply("THREADLINE_TRIGGER_IMAGE"), DEFAULT_TRIGGER_IMAGE),
        or(get.apply("THREADLINE_BASE_IMAGE"), ImageDefaults.BASE_IMAGE),
        or(get.apply("THREADLINE_BUILDER_IMAGE"), DEFAULT_BUILDER_IMAGE),
        or(get.apply("THREADLINE_REGISTRY"), "registry.local/threadline"),
        or(get.apply("THREADLINE_REGISTRY_PUSH_SECRET"), ""),
        Duration.ofSeconds(integer(env, "THREADLINE_BUILD_TIMEOUT_SECONDS", 1800)),
        Boolean.parseBoolean(or(get.apply("THREADLINE_LEADER_ELECTION"), "false")),
        or(
            get.apply("THREADLINE_LEASE_NAMESPACE"),
            or(get.apply("POD_NAMESPACE"), "threadline-system")),
        integer(env, "THREADLINE_OPERATOR_HEALTH_PORT", -1),
        ModelSettings.fromEnvironment(env),
        or(get.apply("THREADLINE_MODEL_PRICES"), ""),
        AgentPodSettings.fromEnvironment(env),
        ContainerSettings.fromEnvironment(env),
        UsagePlans.fromEnvironment(env),
        WebhookSettings.fromEnvironment(env),
        WorkerSettings.fromEnvironment(env),
        ClusterNetwork.fromEnvironment(env),
        BuildPodSettings.fromEnvironment(env),
        ThreadLimit.fromEnvironment(env),
        DeltaSettings.fromEnvironment(env),
        RetentionSettings.fromEnvironment(env),
        HistoryLimits.fromEnvironment(env),
        SettingValues.between(
            env, RECONCILE_THREADS_VARIABLE, DEFAULT_RECONCILE_THREADS, 1, MAX_RECONCILE_THREADS),
        Duration.ofMillis(
            SettingValues.between(
                env,
                ReconcileRetry.FIRST_WAIT_VARIABLE,
                (int) ReconcileRetry.DEFAULT_FIRST_WAIT.toMillis(),
                (int) ReconcileRetry.SHORTEST_FIRST_WAIT.toMillis(),
                (int) ReconcileRetry.LONGEST_WAIT.toMillis())));
  }

  public OperatorSettings withHealthPort(int port) {
    return copy(
        port,
        model,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withAgentPod(AgentPodSettings settings) {
    return copy(
        healthPort,
        model,
        settings,
        containers,
        usagePlans,
        webhooks,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withContainers(ContainerSettings settings) {
    return copy(
        healthPort,
        model,
        agentPod,
        settings,
        usagePlans,
        webhooks,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withUsagePlans(UsagePlans plans) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        plans,
        webhooks,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withModel(ModelSettings settings) {
    return copy(
        healthPort,
        settings,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withWebhooks(WebhookSettings settings) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        usagePlans,
        settings,
        worker,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withWorker(WorkerSettings settings) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        settings,
        deltas,
        retention,
        history);
  }

  public OperatorSettings withDeltas(DeltaSettings settings) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        settings,
        retention,
        history);
  }

  public OperatorSettings withRetention(RetentionSettings settings) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        deltas,
        settings,
        history);
  }

  public OperatorSettings withHistory(HistoryLimits limits) {
    return copy(
        healthPort,
        model,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        deltas,
        retention,
        limits);
  }

  /** These settings with the parts the {@code with…} methods may change. */
  private OperatorSettings copy(
      int healthPort,
      ModelSettings model,
      AgentPodSettings agentPod,
      ContainerSettings containers,
      UsagePlans usagePlans,
      WebhookSettings webhooks,
      WorkerSettings worker,
      DeltaSettings deltas,
      RetentionSettings retention,
      HistoryLimits history) {
    return new OperatorSettings(
        watchNamespaces,
        runnerImage,
        triggerImage,
        baseImage,
        builderImage,
        registry,
        registryPushSecret,
        buildTimeout,
        leaderElection,
        leaseNamespace,
        healthPort,
        model,
        modelPrices,
        agentPod,
        containers,
        usagePlans,
        webhooks,
        worker,
        network,
        buildPods,
        threadLimit,
        deltas,
        retention,
        history,
        reconcileThreads,
        retryFirstWait);
  }

  private static int integer(Map<String, String> env, String key, int fallback) {
    String value = blankToNull(env.get(key));
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, got: " + value);
    }
  }

  private static Set<String> csv(String value) {
    if (value == null) {
      return Set.of();
    }
    return Arrays.stream(value.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toSet());
  }

  private static String or(String value, String fallback) {
    return value == null ? fallback : value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
