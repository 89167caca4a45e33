package dev.threadline.operator.pool;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.environment.WarmPool;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.TokenCloner;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.metrics.StartSteps;
import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.worker.SideBySide;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims a ready sandbox from a run's or a container's environment's warm pool. A claim is one
 * update of the Pod, conditional on the resourceVersion the pool's cache saw: it moves the Pod
 * under the run (its labels, its owner, a deadline counted from now) and out of the pool; of two
 * claims of one Pod the API server accepts exactly one, and the other tries the next Pod. A claimed
 * Pod never returns to the pool: the run's Pod dependent adopts it and deletes it when the run
 * ends. The run's credential Secret and NetworkPolicy exist before the claim, so the Pod is never
 * unguarded: the label change that takes it out of the pool's deny-all policy puts it under its
 * run's.
 */
public final class WarmPools {
  private static final Logger LOG = LoggerFactory.getLogger(WarmPools.class);

  /** A claimed Pod's annotation: when it was claimed. */
  public static final String CLAIMED_AT = "threadline.dev/claimed-at";

  private final KubernetesClient client;
  private final PoolCandidates pools;
  private final OperatorSettings settings;
  private final OperatorMetrics metrics;
  private final Clock clock;
  private final StartSteps steps;
  private final WorkspaceArchives archives;

  public WarmPools(
      KubernetesClient client,
      PoolCandidates pools,
      OperatorSettings settings,
      OperatorMetrics metrics,
      Clock clock,
      WorkspaceArchives archives) {
    this.client = client;
    this.archives = archives;
    this.pools = pools;
    this.settings = settings;
    this.metrics = metrics;
    this.clock = clock;
    this.steps = new StartSteps(metrics);
  }

  /** Where the steps of runs' starts are timed. */
  public StartSteps steps() {
    return steps;
  }

  /**
   * Starts finding out, side by side with what the caller reads next, whether a pool sandbox can
   * carry the files of {@code run}'s thread ({@link WorkspaceArchives#claimable}); a claim waits
   * for the answer only before it takes a Pod.
   */
  public Future<Boolean> carriesFiles(Run run) {
    String namespace = run.getMetadata().getNamespace();
    String thread = run.getSpec().getThread();
    return SideBySide.start(
        () -> steps.time(StartStep.ARCHIVE_CHECK, () -> archives.claimable(namespace, thread)));
  }

  /**
   * A pool sandbox now serving {@code run}, or empty when the environment has no pool, its pool has
   * no ready sandbox of the current image, or the run's thread has files a pool sandbox cannot get
   * ({@code carriesFiles}, from {@link #carriesFiles}): the run then starts cold.
   *
   * @param guard makes the run's credential Secret and NetworkPolicy for a sandbox on that port
   *     (the run's workflow); called before the first claim attempt, and again when the next
   *     candidate listens on another port
   */
  public Optional<Pod> claim(
      Run run, AgentEnvironment environment, Future<Boolean> carriesFiles, IntConsumer guard) {
    String namespace = run.getMetadata().getNamespace();
    return claim(
        new PoolClaimant(
            namespace,
            "Run(" + namespace + "/" + run.getMetadata().getName() + ")",
            AgentObjects.labels(run),
            AgentObjects.ownedBy(run),
            settings.agentPod().deadline()),
        environment,
        guard,
        carriesFiles);
  }

  /** {@link #claim(Run, AgentEnvironment, Future, IntConsumer)}, the thread's files asked now. */
  public Optional<Pod> claim(Run run, AgentEnvironment environment, IntConsumer guard) {
    return hasPool(environment)
        ? claim(run, environment, carriesFiles(run), guard)
        : Optional.empty();
  }

  /**
   * A pool sandbox now {@code claimant}'s, or empty when the environment has no pool or its pool
   * has no ready sandbox of the current image.
   *
   * @param guard makes the claimant's credential and NetworkPolicy for a sandbox on that port;
   *     called before the first claim attempt, and again when the next candidate listens on another
   *     port
   */
  public Optional<Pod> claim(
      PoolClaimant claimant, AgentEnvironment environment, IntConsumer guard) {
    return claim(claimant, environment, guard, CompletableFuture.completedFuture(true));
  }

  /**
   * @param admissible whether the claimant may take a pool sandbox at all, awaited (while the first
   *     guard is made) before the first Pod is taken
   */
  private Optional<Pod> claim(
      PoolClaimant claimant,
      AgentEnvironment environment,
      IntConsumer guard,
      Future<Boolean> admissible) {
    if (!hasPool(environment)) {
      admissible.cancel(true);
      return Optional.empty();
    }
    long began = System.nanoTime();
    List<Pod> candidates =
        pools.claimable(claimant.namespace(), environment.name(), environment.image());
    Integer guardedPort = null;
    for (Pod candidate : candidates) {
      int port = SandboxPod.port(candidate).orElse(settings.containers().firstPort());
      if (guardedPort == null || guardedPort != port) {
        int guarded = port;
        steps.time(StartStep.GUARD, () -> guard.accept(guarded));
        guardedPort = port;
      }
      if (!admitted(admissible)) {
        break;
      }
      Optional<Pod> claimed = steps.time(StartStep.POD_CLAIM, () -> take(candidate, claimant));
      if (claimed.isPresent()) {
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        metrics.poolClaim(true, took);
        LOG.info(
            "{} claimed pool sandbox {} in {} ms",
            claimant.describes(),
            candidate.getMetadata().getName(),
            took.toMillis());
        return claimed;
      }
    }
    metrics.poolClaim(false, Duration.ofNanos(System.nanoTime() - began));
    return Optional.empty();
  }

  private static boolean admitted(Future<Boolean> admissible) {
    try {
      return SideBySide.join(admissible);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether the namespace has a ready, unclaimed pool sandbox of any environment. */
  public boolean anyReady(String namespace) {
    return pools.anyReady(namespace);
  }

  /** Whether the environment asks for a warm pool. */
  public static boolean hasPool(AgentEnvironment environment) {
    if (environment.name() == null || environment.spec() == null) {
      return false;
    }
    WarmPool pool = environment.spec().getWarmPool();
    return pool != null && pool.getSize() != null && pool.getSize() > 0;
  }

  /** The one conditional update that makes {@code candidate} the run's; empty if another won. */
  private Optional<Pod> take(Pod candidate, PoolClaimant claimant) {
    Pod claimed = TokenCloner.copy(client, candidate);
    Map<String, String> labels = new LinkedHashMap<>(claimed.getMetadata().getLabels());
    labels.putAll(claimant.labels());
    labels.put(PoolLabels.STATE, PoolLabels.CLAIMED);
    claimed.getMetadata().setLabels(labels);
    Map<String, String> annotations =
        new LinkedHashMap<>(
            claimed.getMetadata().getAnnotations() == null
                ? Map.of()
                : claimed.getMetadata().getAnnotations());
    Instant now = clock.instant();
    annotations.put(CLAIMED_AT, Timestamps.format(now));
    claimed.getMetadata().setAnnotations(annotations);
    claimed.getMetadata().setOwnerReferences(List.of(claimant.owner()));
    if (claimant.deadline() != null) {
      // The kubelet counts activeDeadlineSeconds from the Pod's start: the deadline from now.
      Instant started =
          Timestamps.parse(
                  candidate.getStatus() == null ? null : candidate.getStatus().getStartTime())
              .orElse(now);
      long age = Math.max(0, Duration.between(started, now).toSeconds());
      claimed.getSpec().setActiveDeadlineSeconds(age + claimant.deadline().toSeconds());
    }
    try {
      return Optional.of(
          client
              .resource(claimed)
              .lockResourceVersion(candidate.getMetadata().getResourceVersion())
              .update());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409 || e.getCode() == 404) {
        return Optional.empty(); // claimed by another run first, or gone
      }
      throw e;
    }
  }
}
