package dev.threadline.operator.computer;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.sandbox.SandboxPorts;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The computer path on the operator's side: a Run routed to the computer gets its sandbox (the Pod
 * serving the runner's tool API, its credential, its NetworkPolicy); the worker runs the agent loop
 * against it and writes the events and the outcome. The operator ends the run only when the sandbox
 * ends first (its deadline, a crash, a deletion) or a cancel is asked, and removes the sandbox once
 * the run has ended. Every step is idempotent — deterministic names, create-if-absent, writes with
 * optimistic locking — so a restarted (or second) operator never starts a second Pod and never runs
 * a finished Run again.
 */
public final class ComputerRuns {
  private static final Logger LOG = LoggerFactory.getLogger(ComputerRuns.class);

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final AgentProfiles agents;
  private final ModelPricing pricing;
  private final Clock clock;
  private final RunStatusWriter writer;
  private final SandboxPorts ports;
  private final KubernetesEvents events;
  private InformerEventSource<Pod, Run> pods;
  private WarmPools warmPools;

  public ComputerRuns(
      KubernetesClient client,
      OperatorSettings settings,
      AgentProfiles agents,
      ModelPricing pricing,
      Clock clock) {
    this.client = client;
    this.settings = settings;
    this.agents = agents;
    this.pricing = pricing;
    this.clock = clock;
    this.events = new KubernetesEvents(clock);
    this.writer = new RunStatusWriter(client);
    this.ports = new SandboxPorts(settings.containers());
  }

  /** Where sandboxes are claimed before one is started cold (docs/warm-pools.md). */
  public void claimFrom(WarmPools warmPools) {
    this.warmPools = warmPools;
  }

  /** The sandbox Pods of runs (only those: selected by label). */
  public List<EventSource<?, Run>> eventSources(EventSourceContext<Run> context) {
    var config =
        InformerEventSourceConfiguration.from(Pod.class, Run.class)
            .withName("agent-pods")
            .withLabelSelector(AgentObjects.podSelector())
            .withSecondaryToPrimaryMapper(ComputerRuns::owningRun)
            .withNamespacesInheritedFromController()
            .build();
    pods = new InformerEventSource<>(config, context);
    return List.of(pods);
  }

  private static Set<ResourceID> owningRun(Pod pod) {
    return Objects.requireNonNullElse(
            pod.getMetadata().getOwnerReferences(), List.<OwnerReference>of())
        .stream()
        .filter(owner ->
            "Run".equals(owner.getKind()) && owner.getApiVersion().startsWith("threadline.dev/"))
        .map(owner -> new ResourceID(owner.getName(), pod.getMetadata().getNamespace()))
        .collect(Collectors.toSet());
  }

  /**
   * A Run has just been routed to the computer: record the route and the operator's {@code started}
   * event first (so clients see {@code computer.starting} at once and a restart never routes
   * again), then make its sandbox.
   */
  public UpdateControl<Run> start(Run run, RunStatus routed, Context<Run> context) {
    routed.setPhase(RunPhase.RUNNING.value());
    Optional<Run> written =
        writer.write(
            run,
            context,
            status -> {
              if (status.getRoute() != null) {
                return false; // another operator routed it first; the next reconcile goes on from
                // there
              }
              status.setObservedGeneration(routed.getObservedGeneration());
              status.setPhase(routed.getPhase());
              status.setRoute(routed.getRoute());
              status.setRouteReason(routed.getRouteReason());
              status.setModel(routed.getModel());
              status.setStartedAt(routed.getStartedAt());
              status.setUsage(routed.getUsage());
              status.setEvents(routed.getEvents());
              status.setDroppedEvents(routed.getDroppedEvents());
              return true;
            });
    return written.map(routedRun -> launch(routedRun, context)).orElseGet(UpdateControl::noUpdate);
  }

  /** A running computer Run: its sandbox moved, or it was asked to stop. */
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    if (Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      cancel(run, context);
      return UpdateControl.noUpdate();
    }
    if (run.getStatus().getPod() == null) {
      // Routed, but the sandbox was not made yet: the operator stopped in between, or a quota had
      // no room.
      if (agents.resolve(run.getMetadata().getNamespace(), run.getSpec().getAgent()).isEmpty()) {
        finish(
            run,
            context,
            AgentOutcome.failed(
                RunErrorCode.EXECUTION_FAILED,
                "Agent " + run.getSpec().getAgent() + " does not exist"));
        return UpdateControl.noUpdate();
      }
      return launch(run, context);
    }
    return watchSandbox(run, context);
  }

  /**
   * A run whose loop is in the worker: the worker writes its events and outcome; the operator only
   * ends it when its sandbox Pod ends (its deadline) or disappears before the worker did.
   */
  private UpdateControl<Run> watchSandbox(Run run, Context<Run> context) {
    Optional<Pod> pod = pod(run, context);
    Optional<AgentOutcome> outcome = AgentOutcome.decide(pod, settings.agentPod().deadline());
    if (outcome.isPresent()) {
      finish(run, context, outcome.get());
      cleanUp(run, pod.isPresent());
    }
    return UpdateControl.noUpdate();
  }

  /**
   * /** What the namespace's runs spent that its ledger may not hold yet, from the informer's
   * cache.
   */
  public Map<String, BigDecimal> uncountedSpend(String namespace, Context<Run> context) {
    return UncountedSpend.byRun(context.getPrimaryCache().list(namespace), pricing);
  }

  /** Cancel: the Pod goes (with a short grace period), the run ends {@code cancelled}. */
  private void cancel(Run run, Context<Run> context) {
    // By its deterministic name: it may exist even if status.pod was not written yet.
    client
        .pods()
        .inNamespace(run.getMetadata().getNamespace())
        .withName(AgentObjects.podName(run))
        .withGracePeriod(settings.agentPod().cancelGracePeriod().toSeconds())
        .delete();
    finish(run, context, AgentOutcome.cancelled());
    cleanUp(run, false);
  }

  /** A finished Run: make sure its Pod and the objects that only served the Pod are gone. */
  public void cleanUpFinished(Run run, Context<Run> context) {
    if (run.getStatus() != null
        && run.getStatus().getPod() != null
        && context.getSecondaryResource(Pod.class).isPresent()) {
      cleanUp(run, true);
    }
  }

  private void cleanUp(Run run, boolean deletePod) {
    if (deletePod) {
      RunSandbox.delete(client, run);
    } else {
      RunSandbox.deleteAccess(client, run);
    }
  }

  private UpdateControl<Run> launch(Run run, Context<Run> context) {
    String namespace = run.getMetadata().getNamespace();
    Pod pod;
    try {
      ConversationThread thread = AgentEnvironment.thread(client, run);
      AgentEnvironment environment =
          AgentEnvironment.resolve(
              client, run, thread, settings.registry(), settings.runnerImage());
      pod = launchSandbox(run, thread, environment);
      LOG.info(
          "Run({}/{}) sandbox Pod {} started with image {}",
          namespace,
          run.getMetadata().getName(),
          pod.getMetadata().getName(),
          environment.image());
    } catch (AgentStartException e) {
      LOG.info(
          "Run({}/{}) cannot start its sandbox: {}",
          namespace,
          run.getMetadata().getName(),
          e.getMessage());
      events.warning(client, run, "SandboxStartFailed", e.getMessage());
      finish(run, context, AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, e.getMessage()));
      return UpdateControl.noUpdate();
    } catch (KubernetesClientException e) {
      Optional<String> quota = QuotaWait.refusal(e);
      if (quota.isEmpty()) {
        throw e;
      }
      return waitForQuota(run, context, quota.get());
    }
    if (pods != null) {
      pods.handleRecentResourceCreate(ResourceID.fromResource(pod), pod);
    }
    writer.write(
        run,
        context,
        status -> {
          if (status.getPod() != null || isTerminal(status)) {
            return false;
          }
          status.setPod(pod.getMetadata().getName());
          status.setStart(
              PoolLabels.isPoolPod(pod) ? RunStatus.START_CLAIMED : RunStatus.START_COLD);
          return true;
        });
    return UpdateControl.noUpdate();
  }

  /**
   * The run's sandbox: the workspace claim, the credential Secret and the NetworkPolicy before the
   * Pod, so that it never listens unprotected. The worker runs the loop once the Pod is ready.
   */
  private Pod launchSandbox(Run run, ConversationThread thread, AgentEnvironment environment) {
    Optional<Pod> claimed =
        warmPools == null ? Optional.empty() : warmPools.claim(run, environment);
    if (claimed.isPresent()) {
      return claimed.get();
    }
    RunSandbox sandbox =
        new RunSandbox(
            run,
            environment,
            sandboxPort(run),
            settings.containers().bindAddress(),
            settings.containers().worker(),
            settings.agentPod(),
            settings.network());
    IdempotentCreate.createOrGet(client, WorkspaceClaim.of(thread, settings.agentPod()));
    IdempotentCreate.createOrGet(client, sandbox.credential());
    IdempotentCreate.createOrGet(client, sandbox.networkPolicy());
    return IdempotentCreate.createOrGet(client, sandbox.pod());
  }

  /**
   * On a Pod network every sandbox listens on the range's first port; where Pods share the host's
   * network (local mode) each gets a free one of the range.
   */
  private int sandboxPort(Run run) {
    return ports
        .allocate(
            run.getMetadata().getNamespace(),
            AgentObjects.podName(run),
            pods == null ? Stream.of() : pods.list())
        .orElseThrow(() ->
            new AgentStartException(
                "No port of " + settings.containers().range() + " is free for the sandbox"));
  }

  /**
   * The namespace's ResourceQuota has no room for the agent yet: the run stays routed without a Pod
   * and tries again later, until its deadline (counted from its start) ends it with {@code
   * execution_timeout}.
   */
  private UpdateControl<Run> waitForQuota(Run run, Context<Run> context, String refusal) {
    Instant now = clock.instant();
    Duration waited =
        Duration.between(Timestamps.parse(run.getStatus().getStartedAt()).orElse(now), now);
    Duration deadline = settings.agentPod().deadline();
    if (waited.compareTo(deadline) >= 0) {
      finish(
          run,
          context,
          AgentOutcome.failed(
              RunErrorCode.EXECUTION_TIMEOUT,
              "No agent Pod could start within " + deadline.toSeconds() + " s: " + refusal));
      cleanUp(run, false);
      return UpdateControl.noUpdate();
    }
    events.warning(
        client, run, "QuotaWait", "Waiting for room in the namespace's quota: " + refusal);
    LOG.info(
        "Run({}/{}) waits for room in its namespace's quota ({} s so far): {}",
        run.getMetadata().getNamespace(),
        run.getMetadata().getName(),
        waited.toSeconds(),
        refusal);
    Duration retry = QuotaWait.nextRetry(waited);
    Duration left = deadline.minus(waited);
    return UpdateControl.<Run>noUpdate().rescheduleAfter(retry.compareTo(left) < 0 ? retry : left);
  }

  private void finish(Run run, Context<Run> context, AgentOutcome outcome) {
    Instant now = clock.instant();
    writer
        .write(
            run, context, status -> ComputerStatus.finish(status, List.of(), outcome, now, pricing))
        .ifPresent(done ->
            LOG.info(
                "Run({}/{}) {}{} in {} ms",
                done.getMetadata().getNamespace(),
                done.getMetadata().getName(),
                done.getStatus().getPhase(),
                outcome.succeeded() ? "" : " (" + outcome.error().code() + ")",
                done.getStatus().getDurationMs()));
  }

  /**
   * The Run's Pod: from the informer, or — just after it was made, before the informer saw it — the
   * API.
   */
  private Optional<Pod> pod(Run run, Context<Run> context) {
    Optional<Pod> cached = context.getSecondaryResource(Pod.class);
    if (cached.isPresent()) {
      return cached;
    }
    return Optional.ofNullable(
        client
            .pods()
            .inNamespace(run.getMetadata().getNamespace())
            .withName(run.getStatus().getPod())
            .get());
  }

  private static boolean isTerminal(RunStatus status) {
    return status.getPhase() != null && RunPhase.fromValue(status.getPhase()).isTerminal();
  }
}
