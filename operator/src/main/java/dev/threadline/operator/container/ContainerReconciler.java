package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerExpiry;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.operator.computer.AgentEnvironment;
import dev.threadline.operator.computer.AgentStartException;
import dev.threadline.operator.computer.QuotaWait;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.pool.PoolPlan;
import dev.threadline.operator.pool.PoolSandboxBind;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.sandbox.PortTakenRestarts;
import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a Container's Pod serving its file API, and deletes an ephemeral Container once it has gone
 * {@code timeoutMs} without use. Expiry is a scheduled reconcile at the expiry instant, not a
 * polling loop: the reconcile then re-reads {@code lastActivityAt} (which the api-server moves on
 * every use) and either deletes the Container or sleeps until the new expiry.
 *
 * <p>A reconcile reads: reserve a port (written alone, before anything listens on it), resolve the
 * environment, invoke the workflow of the container's objects — access Secret, NetworkPolicy,
 * workspace claim (persistent containers only), and the Pod after its NetworkPolicy and Secret —
 * then compute the status from the Pod and write it once, only when it changed. Every object is
 * owned by the Container (garbage-collected with it) and named after it, so a restarted operator
 * makes nothing twice. A Pod that disappears is made again; a persistent Container's Pod that ended
 * is replaced (the claim keeps the workspace), an ephemeral one's is reported failed.
 *
 * <p>A container that claimed a warm pool's Pod binds it before it records the claim; a bind that
 * keeps failing is tried again for a bounded time ({@link PoolBindRetry}), then the Pod is deleted
 * (a pool Pod is never reused) and the container starts cold, with a {@value #POOL_BIND_FAILED}
 * Event.
 */
@Workflow(
    explicitInvocation = true,
    handleExceptionsInReconciler = true,
    dependents = {
      @Dependent(
          name = ContainerAccessSecretDependentResource.NAME,
          type = ContainerAccessSecretDependentResource.class),
      @Dependent(
          name = ContainerNetworkPolicyDependentResource.NAME,
          type = ContainerNetworkPolicyDependentResource.class),
      @Dependent(
          name = ContainerWorkspaceClaimDependentResource.NAME,
          type = ContainerWorkspaceClaimDependentResource.class,
          reconcilePrecondition = PersistentContainer.class),
      @Dependent(
          name = ContainerPodDependentResource.NAME,
          type = ContainerPodDependentResource.class,
          dependsOn = {
            ContainerNetworkPolicyDependentResource.NAME,
            ContainerAccessSecretDependentResource.NAME
          })
    })
@ControllerConfiguration(name = "container")
public class ContainerReconciler implements Reconciler<Container> {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerReconciler.class);

  /** Never wake up sooner than this: a clock a little behind must not make a busy loop. */
  private static final Duration MIN_WAKE_UP = Duration.ofMillis(500);

  /** How soon a container that found no free port looks again. */
  private static final Duration PORT_RETRY = Duration.ofSeconds(10);

  /** The containers' share of {@link SandboxPorts}. */
  private static final String CONTAINERS_DOMAIN = "containers";

  /** How soon a container whose Pod was deleted for its taken port looks again. */
  private static final Duration REPLACED_POD_WAIT = Duration.ofMillis(250);

  /** The Event of a container that gave up its pool Pod and started cold. */
  static final String POOL_BIND_FAILED = "PoolBindFailed";

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final SandboxPorts ports;
  private final ContainerStatusWriter writer;
  private final Conditions conditions;
  private final KubernetesEvents events;
  private final Clock clock;
  private final ContainerClaim claims;
  private final PoolBindRetry bindRetry;
  private final PortTakenRestarts portRestarts;

  /** Containers start cold, whatever their environments' pools. */
  public ContainerReconciler(
      KubernetesClient client, OperatorSettings settings, Conditions conditions, Clock clock) {
    this(client, settings, conditions, clock, null, null);
  }

  /**
   * Ephemeral containers of environments with a warm pool claim from it ({@link ContainerClaim}).
   */
  public ContainerReconciler(
      KubernetesClient client,
      OperatorSettings settings,
      Conditions conditions,
      Clock clock,
      WarmPools pools,
      PoolSandboxBind bind) {
    this(client, settings, conditions, clock, pools, bind, new SandboxPorts(settings.containers()));
  }

  /** As above, with the operator's one chooser of sandbox ports (shared with runs and pools). */
  public ContainerReconciler(
      KubernetesClient client,
      OperatorSettings settings,
      Conditions conditions,
      Clock clock,
      WarmPools pools,
      PoolSandboxBind bind,
      SandboxPorts ports) {
    this(client, settings, conditions, clock, pools, bind, PoolBindRetry.DEFAULT, ports);
  }

  /** As above, with how long a failing bind of a claimed pool Pod is tried. */
  ContainerReconciler(
      KubernetesClient client,
      OperatorSettings settings,
      Conditions conditions,
      Clock clock,
      WarmPools pools,
      PoolSandboxBind bind,
      PoolBindRetry bindRetry,
      SandboxPorts ports) {
    this.client = client;
    this.bindRetry = bindRetry;
    this.claims = pools == null ? null : new ContainerClaim(client, pools, bind, settings);
    this.settings = settings;
    this.ports = ports;
    this.portRestarts = new PortTakenRestarts(ports, CONTAINERS_DOMAIN);
    this.writer = new ContainerStatusWriter(client);
    this.conditions = conditions;
    this.clock = clock;
    this.events = new KubernetesEvents(clock);
  }

  @Override
  public UpdateControl<Container> reconcile(Container container, Context<Container> context) {
    if (container.getMetadata().getDeletionTimestamp() != null) {
      portRestarts.forget(container);
      return UpdateControl.noUpdate();
    }
    Instant now = clock.instant();
    Optional<Duration> remaining = ContainerExpiry.remaining(container, now);
    if (remaining.isPresent() && !remaining.get().isPositive()) {
      expire(container);
      return UpdateControl.noUpdate();
    }

    Integer recordedPort = container.getStatus() == null ? null : container.getStatus().getPort();
    String coldBecause = null;
    if (recordedPort == null) {
      Optional<Pod> claimed = fromPool(container, context);
      if (claimed.isPresent()) {
        Pod pool = claimed.get();
        String unbound = bindFailure(container, pool);
        if (unbound == null) {
          // Port, Pod and start in one write; the workflow adopts the Pod in the next reconcile.
          recordState(
              container,
              context,
              SandboxPod.port(pool).orElseThrow(),
              ContainerState.of(claimed),
              claimed,
              PoolPlan.image(pool),
              ContainerStatus.START_CLAIMED);
          return UpdateControl.<Container>noUpdate().rescheduleAfter(Duration.ZERO);
        }
        Optional<Duration> nextTry = bindRetry.nextTry(pool, now);
        if (nextTry.isPresent()) {
          // Nothing recorded but the wait: the next reconcile adopts the Pod and tries again.
          recordState(
              container,
              context,
              null,
              new ContainerState(ContainerPhase.PENDING, unbound + "; trying again"),
              Optional.empty(),
              null,
              null);
          return UpdateControl.<Container>noUpdate().rescheduleAfter(nextTry.get());
        }
        coldBecause = giveUp(container, pool, unbound);
      }
    }
    Integer port = recordedPort == null ? allocatePort(container, context) : recordedPort;
    ContainerState state;
    String image = null;
    Optional<Pod> pod = Optional.empty();
    Optional<Duration> wakeUp = Optional.empty();
    boolean quotaWait = false;
    if (port == null) {
      state =
          new ContainerState(
              ContainerPhase.FAILED,
              "no free port in " + settings.containers().range() + " for the file API");
      wakeUp = Optional.of(PORT_RETRY); // nothing else would bring another reconcile
    } else if (recordedPort == null) {
      // The port is written before anything listens on it, so that no other container takes it;
      // the objects follow at once, in the next reconcile.
      state =
          new ContainerState(
              ContainerPhase.PENDING,
              (coldBecause == null ? "" : coldBecause + "; ") + "reserving port " + port);
      wakeUp = Optional.of(Duration.ZERO);
    } else {
      Optional<Pod> own = ownPod(container, context);
      if (own.isPresent() && portRestarts.shouldRestart(container, own.get())) {
        return onAnotherPort(container, context, own.get());
      }
      try {
        AgentEnvironment environment = environment(container);
        image = environment.image();
        new ContainerPlan(environment, settings).putInto(context);
        WorkflowReconcileResult result =
            context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
        Optional<Duration> quotaRetry = quotaRefusal(container, result, now);
        pod = replaceEndedPod(container, ownPod(container, context));
        state =
            quotaRetry.isPresent()
                ? new ContainerState(
                    ContainerPhase.PENDING,
                    "waiting for room in the namespace's quota: "
                        + QuotaWait.refusal(podError(result).orElseThrow()).orElseThrow())
                : claimedStart(container) && pod.isEmpty()
                    ? new ContainerState(ContainerPhase.FAILED, "its warm pool Pod is gone")
                    : ContainerState.of(pod);
        wakeUp = quotaRetry;
        quotaWait = quotaRetry.isPresent();
      } catch (AgentStartException e) {
        state = new ContainerState(ContainerPhase.FAILED, e.getMessage());
      }
    }
    recordState(
        container,
        context,
        port,
        state,
        pod,
        image,
        recordedPort == null && port != null ? ContainerStatus.START_COLD : null);
    recordEvent(container, state, quotaWait);
    Optional<Duration> retry = wakeUp;
    Optional<Duration> next =
        remaining
            .map(left -> max(left, MIN_WAKE_UP))
            .map(left -> retry.map(r -> left.compareTo(r) < 0 ? left : r).orElse(left))
            .or(() -> retry);
    return next.map(delay -> UpdateControl.<Container>noUpdate().rescheduleAfter(delay))
        .orElseGet(UpdateControl::noUpdate);
  }

  /**
   * A pool Pod for a container that has no port yet: one it claimed before (its status write did
   * not happen) or a fresh claim; empty → a cold start. An environment that cannot be resolved
   * starts cold, where the workflow reports why.
   */
  private Optional<Pod> fromPool(Container container, Context<Container> context) {
    if (claims == null) {
      return Optional.empty();
    }
    Optional<Pod> adopted = claims.adopt(container, context.getSecondaryResources(Pod.class));
    if (adopted.isPresent()) {
      return adopted;
    }
    AgentEnvironment environment;
    try {
      environment = environment(container);
    } catch (AgentStartException e) {
      return Optional.empty();
    }
    return ContainerClaim.wanted(container, environment)
        ? claims.claim(container, environment)
        : Optional.empty();
  }

  /** Binds a claimed pool Pod; null when it is bound, else why not (for the status). */
  private String bindFailure(Container container, Pod pool) {
    try {
      claims.bind(container, pool);
      return null;
    } catch (RuntimeException e) {
      LOG.warn("could not bind pool sandbox {}: {}", pool.getMetadata().getName(), e.getMessage());
      return "the warm pool sandbox "
          + pool.getMetadata().getName()
          + " could not be bound: "
          + e.getMessage();
    }
  }

  /**
   * A pool Pod whose bind kept failing is deleted (a pool Pod is never reused) and the container
   * starts cold; an Event says why.
   *
   * @return the status message's reason for the cold start
   */
  private String giveUp(Container container, Pod pool, String unbound) {
    String why = unbound + "; given up after " + bindRetry.giveUpAfter().toSeconds() + " s";
    LOG.info("{}: starting cold", why);
    client.resource(pool).delete();
    events.warning(client, container, POOL_BIND_FAILED, why + "; starting cold");
    return why + ", starting cold";
  }

  /**
   * The container's Pod among those it owns (a given-up pool Pod may still be terminating), not one
   * deleted for its taken port.
   */
  private Optional<Pod> ownPod(Container container, Context<Container> context) {
    String name = ContainerPodDependentResource.podName(container);
    return context.getSecondaryResources(Pod.class).stream()
        .filter(pod -> name.equals(pod.getMetadata().getName()))
        .filter(pod -> !portRestarts.replaced(container, pod))
        .findFirst();
  }

  /**
   * The container's Pod never listened: another program held its port past the runner's retries. As
   * a run's sandbox ({@link PortTakenRestarts}): the port is recorded no more, the Pod goes, and
   * the next reconcile reserves another port and makes the Pod again there (the NetworkPolicy
   * follows the port; a persistent container's claim keeps the workspace).
   */
  private UpdateControl<Container> onAnotherPort(
      Container container, Context<Container> context, Pod pod) {
    Long generation = container.getMetadata().getGeneration();
    portRestarts.restart(
        client,
        events,
        container,
        pod,
        message -> {
          ContainerState state = new ContainerState(ContainerPhase.PENDING, message);
          writer.write(
              container,
              context,
              status -> {
                if (status.getPort() == null) {
                  return false;
                }
                status.setPort(null);
                status.setPod(null);
                status.setPodIP(null);
                status.setPhase(state.phase().value());
                status.setMessage(state.message());
                status.setConditions(
                    conditions.summarise(
                        status.getConditions(), summary(state, false), generation));
                return true;
              });
        });
    return UpdateControl.<Container>noUpdate().rescheduleAfter(REPLACED_POD_WAIT);
  }

  private AgentEnvironment environment(Container container) {
    return AgentEnvironment.resolve(
        client,
        container.getMetadata().getNamespace(),
        container.getSpec().getEnvironment(),
        settings.registry(),
        settings.runnerImage());
  }

  private static boolean claimedStart(Container container) {
    return container.getStatus() != null
        && ContainerStatus.START_CLAIMED.equals(container.getStatus().getStart());
  }

  /**
   * A quota that refused the Pod: the container waits for room, as a run does, until it expires.
   * Any other failure of the workflow is thrown, for the framework's retry and {@link
   * #updateErrorStatus}.
   */
  private Optional<Duration> quotaRefusal(
      Container container, WorkflowReconcileResult result, Instant now) {
    Optional<KubernetesClientException> podError = podError(result);
    result.getErroredDependents().values().stream()
        .filter(e -> podError.map(pe -> pe != e).orElse(true))
        .findFirst()
        .ifPresent(e -> {
          throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        });
    if (podError.isEmpty()) {
      return Optional.empty();
    }
    if (QuotaWait.refusal(podError.get()).isEmpty()) {
      throw podError.get();
    }
    return Optional.of(
        QuotaWait.nextRetry(
            Duration.between(
                Timestamps.parse(container.getMetadata().getCreationTimestamp()).orElse(now),
                now)));
  }

  private static Optional<KubernetesClientException> podError(WorkflowReconcileResult result) {
    return result.getErroredDependents().entrySet().stream()
        .filter(entry -> ContainerPodDependentResource.NAME.equals(entry.getKey().name()))
        .map(entry -> entry.getValue())
        .filter(KubernetesClientException.class::isInstance)
        .map(KubernetesClientException.class::cast)
        .findFirst();
  }

  @Override
  public ErrorStatusUpdateControl<Container> updateErrorStatus(
      Container container, Context<Container> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, container, ContainerStatus::new, e);
  }

  private void expire(Container container) {
    LOG.info("unused for {} ms: deleting it", container.getSpec().getTimeoutMs());
    // The Pod, its Secret and claim are owned by the Container: garbage-collected with it.
    client.resource(container).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
  }

  /**
   * A failure to start, once when it happens; a quota's refusal at each attempt (the retries back
   * off).
   */
  private void recordEvent(Container container, ContainerState state, boolean quotaWait) {
    ContainerStatus before = container.getStatus();
    boolean newFailure =
        state.phase() == ContainerPhase.FAILED
            && (before == null
                || !ContainerPhase.FAILED.value().equals(before.getPhase())
                || !Objects.equals(before.getMessage(), state.message()));
    if (newFailure) {
      events.warning(client, container, "SandboxStartFailed", state.message());
    } else if (quotaWait) {
      events.warning(client, container, "QuotaWait", state.message());
    }
  }

  /** A free port of the range, as the other containers' recorded ports leave them. */
  private Integer allocatePort(Container container, Context<Container> context) {
    String key = container.getMetadata().getNamespace() + "/" + container.getMetadata().getName();
    Map<String, Integer> held = new HashMap<>();
    context
        .getPrimaryCache()
        .list()
        .forEach(other ->
            held.put(
                other.getMetadata().getNamespace() + "/" + other.getMetadata().getName(),
                other.getStatus() == null ? null : other.getStatus().getPort()));
    return ports.allocate(CONTAINERS_DOMAIN, key, held).orElse(null);
  }

  /**
   * A persistent container's Pod that ended is deleted; its deletion event brings the next
   * reconcile, whose workflow makes the new one (the claim keeps the workspace).
   */
  private Optional<Pod> replaceEndedPod(Container container, Optional<Pod> pod) {
    if (pod.isPresent()
        && hasEnded(pod.get())
        && Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      LOG.info("Pod ended ({}); replacing it", pod.get().getStatus().getPhase());
      client.resource(pod.get()).delete();
      return Optional.empty();
    }
    return pod;
  }

  /**
   * The one status write of a reconcile, skipped when nothing changed. The first also records the
   * port and the first activity (the container's creation).
   */
  private void recordState(
      Container container,
      Context<Container> context,
      Integer port,
      ContainerState state,
      Optional<Pod> pod,
      String image,
      String start) {
    String podIP = pod.map(Pod::getStatus).map(PodStatus::getPodIP).orElse(null);
    String podName = pod.map(p -> p.getMetadata().getName()).orElse(null);
    Long generation = container.getMetadata().getGeneration();
    boolean ready = state.phase() == ContainerPhase.RUNNING;
    String created = Timestamps.normalize(container.getMetadata().getCreationTimestamp());
    writer.write(
        container,
        context,
        status -> {
          boolean changed =
              (status.getPort() == null && port != null)
                  || (status.getLastActivityAt() == null && created != null)
                  || (status.getStart() == null && start != null)
                  || !Objects.equals(status.getPhase(), state.phase().value())
                  || !Objects.equals(status.getMessage(), state.message())
                  || !Objects.equals(status.getPod(), podName)
                  || !Objects.equals(status.getPodIP(), podIP)
                  || (image != null && !Objects.equals(status.getImage(), image))
                  || !Objects.equals(status.getObservedGeneration(), generation);
          if (!changed) {
            return false;
          }
          if (!Objects.equals(status.getPhase(), state.phase().value())) {
            LOG.info(
                "{}{}",
                state.phase().value(),
                state.message() == null ? "" : " (" + state.message() + ")");
          }
          if (status.getPort() == null) {
            status.setPort(port);
          }
          if (status.getLastActivityAt() == null) {
            status.setLastActivityAt(created);
          }
          if (status.getStart() == null) {
            status.setStart(start);
          }
          status.setPhase(state.phase().value());
          status.setMessage(state.message());
          status.setPod(podName);
          status.setPodIP(podIP);
          if (image != null) {
            status.setImage(image);
          }
          status.setObservedGeneration(generation);
          status.setConditions(
              conditions.summarise(status.getConditions(), summary(state, ready), generation));
          return true;
        });
  }

  /** Ready once its Pod is; failed is stalled, any other phase on its way. */
  private static Conditions.Summary summary(ContainerState state, boolean ready) {
    if (ready) {
      return Conditions.Summary.ready("Running", state.message());
    }
    String reason = capitalized(state.phase().value());
    return state.phase() == ContainerPhase.FAILED
        ? Conditions.Summary.stalled(reason, state.message())
        : Conditions.Summary.reconciling(Conditions.FALSE, reason, state.message());
  }

  private static boolean hasEnded(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static String capitalized(String value) {
    return Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }
}
