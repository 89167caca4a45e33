package dev.threadline.operator.pool;

import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.WarmPool;
import dev.threadline.crds.environment.WarmPoolStatus;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.QuotaWait;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.worker.PodSandboxLocator;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each Environment's warm pool at {@code spec.warmPool.size} unclaimed sandboxes of its
 * current image (see docs/warm-pools.md): creates missing ones, replaces those of an older image,
 * removes surplus ones and, for an inactive Environment or size 0, all of them. It is a controller
 * of its own on Environments (the build controller is another) and the only writer of {@code
 * status.warmPool}. A namespace quota that refuses a pool Pod makes the pool wait and try again, as
 * a run waits for its Pod. Claims happen elsewhere ({@link WarmPools}); their Pods' changes wake
 * this controller, which refills.
 */
@ControllerConfiguration(name = "warm-pool", generationAwareEventProcessing = false)
public final class WarmPoolReconciler implements Reconciler<Environment>, PoolCandidates {
  private static final Logger LOG = LoggerFactory.getLogger(WarmPoolReconciler.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final PoolSettings pool;
  private final SandboxPorts ports;

  /** The pools' share of {@link SandboxPorts}. */
  private static final String POOLS_DOMAIN = "pools";

  private final Clock clock;
  private final KubernetesEvents events;

  /** Environment → when its namespace's quota first refused a pool Pod of the current wait. */
  private final Map<ResourceID, Instant> refusedSince = new ConcurrentHashMap<>();

  private InformerEventSource<Pod, Environment> pods;

  public WarmPoolReconciler(
      KubernetesClient client,
      OperatorSettings settings,
      PoolSettings pool,
      SandboxPorts ports,
      Clock clock,
      KubernetesEvents events) {
    this.events = events;
    this.client = client;
    this.settings = settings;
    this.pool = pool;
    this.ports = ports;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, Environment>> prepareEventSources(
      EventSourceContext<Environment> context) {
    var config =
        InformerEventSourceConfiguration.from(Pod.class, Environment.class)
            .withName("warm-pool-pods")
            .withLabelSelector(PoolLabels.selector())
            .withSecondaryToPrimaryMapper(WarmPoolReconciler::environmentOf)
            .withOnDeleteFilter(ports::released) // a run may wait for the port it held
            .withNamespacesInheritedFromController()
            .build();
    ports.signalsReleases(POOLS_DOMAIN);
    pods = new InformerEventSource<>(config, context);
    return List.of(pods);
  }

  private static Set<ResourceID> environmentOf(Pod pod) {
    String environment = PoolLabels.environment(pod);
    return environment == null
        ? Set.of()
        : Set.of(new ResourceID(environment, pod.getMetadata().getNamespace()));
  }

  @Override
  public UpdateControl<Environment> reconcile(
      Environment environment, Context<Environment> context) {
    ResourceID id = ResourceID.fromResource(environment);
    Set<Pod> mine = context.getSecondaryResources(Pod.class);
    List<Pod> unclaimed = mine.stream().filter(pod -> !PoolLabels.isClaimed(pod)).toList();
    AgentEnvironment resolved =
        AgentEnvironment.of(environment, settings.registry(), settings.runnerImage());
    int size = size(environment);
    PoolPlan plan = PoolPlan.of(size, resolved.image(), unclaimed, headroom());
    for (Pod stale : plan.remove()) {
      if (SandboxPod.portTaken(stale)) {
        // Another program holds its port: the Pod that replaces it, and every other, gets another.
        ports.takenByAnother(
            POOLS_DOMAIN, stale.getMetadata().getNamespace() + "/" + stale.getMetadata().getName());
      }
      client.resource(stale).delete();
    }
    Duration retry = null;
    if (plan.create() > 0) {
      retry = fill(environment, resolved, plan.create(), id);
    }
    if (size > 0 && plan.create() == 0) {
      refusedSince.remove(id);
    }
    writeStatus(environment, mine, resolved.image());
    return retry == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Environment>noUpdate().rescheduleAfter(retry);
  }

  /**
   * The environment's unclaimed pool Pods that serve {@code image} and are ready, oldest first:
   * what a claim may take.
   */
  @Override
  public List<Pod> claimable(String namespace, String environment, String image) {
    if (pods == null) {
      return List.of();
    }
    String pool = PoolLabels.poolValue(environment);
    return pods.list(namespace)
        .filter(pod -> pool.equals(pod.getMetadata().getLabels().get(PoolLabels.POOL)))
        .filter(pod -> environment.equals(PoolLabels.environment(pod)))
        .filter(pod -> !PoolLabels.isClaimed(pod))
        .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
        .filter(pod -> image.equals(PoolPlan.image(pod)))
        .filter(PodSandboxLocator::ready)
        .sorted(
            java.util.Comparator.comparing((Pod pod) ->
                java.util.Objects.requireNonNullElse(pod.getMetadata().getCreationTimestamp(), "")))
        .toList();
  }

  @Override
  public boolean anyReady(String namespace) {
    return pods != null
        && pods.list(namespace)
            .anyMatch(pod ->
                !PoolLabels.isClaimed(pod)
                    && pod.getMetadata().getDeletionTimestamp() == null
                    && PodSandboxLocator.ready(pod));
  }

  /** The size asked for; 0 for an inactive or deleted Environment. */
  static int size(Environment environment) {
    if (environment.getMetadata().getDeletionTimestamp() != null
        || environment.getSpec() == null
        || Boolean.FALSE.equals(environment.getSpec().getIsActive())) {
      return 0;
    }
    WarmPool warmPool = environment.getSpec().getWarmPool();
    return warmPool == null || warmPool.getSize() == null ? 0 : Math.max(0, warmPool.getSize());
  }

  /** How many more unclaimed pool Pods the cluster-wide cap allows besides these. */
  private int headroom() {
    long everywhere = pods.list().filter(pod -> !PoolLabels.isClaimed(pod)).count();
    return (int) Math.max(0, pool.maxReady() - everywhere);
  }

  /** Creates {@code missing} pool Pods; a retry delay when the quota refused one. */
  private Duration fill(
      Environment environment, AgentEnvironment resolved, int missing, ResourceID id) {
    String namespace = environment.getMetadata().getNamespace();
    PoolSandbox sandbox =
        new PoolSandbox(
            environment,
            resolved.image(),
            resolved.internetAccess(),
            settings.containers().worker(),
            settings.agentPod(),
            settings.network());
    int port = settings.containers().firstPort();
    try {
      IdempotentCreate.createOrGet(client, sandbox.credential());
      IdempotentCreate.createOrGet(client, sandbox.networkPolicy(port));
      for (int i = 0; i < missing; i++) {
        String name = podName(environment);
        Pod pod = sandbox.pod(name, port(namespace, name), settings.containers().bindAddress());
        Pod created = client.resource(pod).create();
        pods.handleRecentResourceCreate(ResourceID.fromResource(created), created);
        try (ResourceLogContext logged = ResourceLogContext.of(environment)) {
          LOG.info("pool sandbox {} started with image {}", name, resolved.image());
        }
      }
      refusedSince.remove(id);
      events.normal(
          client,
          environment,
          "PoolRefilled",
          "Started "
              + missing
              + " warm pool sandbox"
              + (missing == 1 ? "" : "es")
              + " (pool size "
              + size(environment)
              + ") with image "
              + resolved.image());
      return null;
    } catch (KubernetesClientException e) {
      String refusal = QuotaWait.refusal(e).orElseThrow(() -> e);
      Instant now = clock.instant();
      Duration waited = Duration.between(refusedSince.computeIfAbsent(id, any -> now), now);
      try (ResourceLogContext logged = ResourceLogContext.of(environment)) {
        LOG.info(
            "pool waits for room in its namespace's quota ({} s so far): {}",
            waited.toSeconds(),
            refusal);
      }
      return QuotaWait.nextRetry(waited);
    }
  }

  /**
   * On a Pod network every sandbox listens on the range's first port; where Pods share the host's
   * network (local mode) each gets a free one of the range.
   */
  private int port(String namespace, String name) {
    return ports
        .choose(POOLS_DOMAIN, namespace, name, pods.list())
        .port()
        .orElseThrow(() ->
            new IllegalStateException(
                "No port of " + settings.containers().range() + " is free for a pool sandbox"));
  }

  private static String podName(Environment environment) {
    String base = environment.getMetadata().getName();
    if (base.length() > 40) {
      base = base.substring(0, 40).replaceAll("[-.]+$", "");
    }
    byte[] suffix = new byte[4];
    RANDOM.nextBytes(suffix);
    return "pool-" + base + "-" + HexFormat.of().formatHex(suffix);
  }

  /** Patches {@code status.warmPool} alone, and only when it changed. */
  private void writeStatus(Environment environment, Set<Pod> mine, String image) {
    int ready =
        (int)
            mine.stream()
                .filter(pod -> !PoolLabels.isClaimed(pod))
                .filter(pod -> image.equals(PoolPlan.image(pod)))
                .filter(PodSandboxLocator::ready)
                .count();
    int claimed = (int) mine.stream().filter(PoolLabels::isClaimed).count();
    WarmPoolStatus next = new WarmPoolStatus(ready, claimed, size(environment) > 0 ? image : null);
    WarmPoolStatus current =
        environment.getStatus() == null ? null : environment.getStatus().getWarmPool();
    if (next.equals(current)
        || (current == null && ready == 0 && claimed == 0 && size(environment) == 0)) {
      return;
    }
    StatusFieldPatch.patch(client, environment, "warmPool", next);
  }
}
