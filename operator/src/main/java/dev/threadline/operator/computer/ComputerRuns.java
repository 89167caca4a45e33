package dev.threadline.operator.computer;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.pool.PoolLabels;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.sandbox.PortTakenRestarts;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.worker.RunClaims;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The computer path on the operator's side: a Run routed to the computer gets its sandbox (the Pod
 * serving the runner's tool API, its credential, its NetworkPolicy) — the Run controller's workflow
 * of dependents ({@code RunSandbox*DependentResource}), invoked from here with the reconcile's
 * {@link SandboxIntent}, or a Pod claimed from a warm pool, which the Pod dependent adopts. The
 * worker runs the agent loop against it and writes the events and the outcome. The computer path
 * never ends a run: a sandbox that cannot start or ends first (its deadline, a crash, a deletion)
 * is reported in the Run's {@link SandboxCondition}, from which the worker ends the run; a cancel
 * takes the sandbox away; the workflow deletes the sandbox once the run has ended. Every step is
 * idempotent — deterministic names, create-if-absent, writes with optimistic locking, a Pod the run
 * owns adopted — so a restarted (or second) operator never starts a second Pod and never runs a
 * finished Run again.
 */
public final class ComputerRuns {
  private static final Logger LOG = LoggerFactory.getLogger(ComputerRuns.class);

  /**
   * The Run controller's informer of sandbox Pods (selected by label), shared by the Pod dependent.
   */
  public static final String PODS = "agent-pods";

  /** The runs' share of {@link SandboxPorts}. */
  private static final String RUNS_DOMAIN = "runs";

  /** How soon a run whose Pod was deleted for its taken port looks again. */
  private static final Duration REPLACED_POD_WAIT = Duration.ofMillis(250);

  /** The Run controller's source of wake-ups for runs waiting for a port. */
  public static final String PORT_WAITS = "port-waits";

  /** The Event of a run whose sandbox waits for a free port. */
  static final String PORT_WAIT = "PortWait";

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final AgentProfiles agents;
  private final ModelPricing pricing;
  private final Clock clock;
  private final RunStatusWriter writer;
  private final SandboxPorts ports;
  private final KubernetesEvents events;
  private final Conditions conditions;
  private final PortTakenRestarts portRestarts;

  /** Runs whose sandbox waits for a free port: each reconciled again when a sandbox goes. */
  private final Set<ResourceID> waitingForPort = ConcurrentHashMap.newKeySet();

  private final SimpleInboundEventSource<Run> portWaits =
      new SimpleInboundEventSource<>(PORT_WAITS);
  private InformerEventSource<Pod, Run> pods;
  private WarmPools warmPools;
  private SandboxHandOff handOff = SandboxHandOff.NONE;

  /**
   * With the operator's one chooser of sandbox ports (shared with pools and containers) and its one
   * recorder of Events (shared with the Run controller).
   */
  public ComputerRuns(
      KubernetesClient client,
      OperatorSettings settings,
      AgentProfiles agents,
      ModelPricing pricing,
      Clock clock,
      SandboxPorts ports,
      KubernetesEvents events) {
    this.client = client;
    this.settings = settings;
    this.agents = agents;
    this.pricing = pricing;
    this.clock = clock;
    this.events = events;
    this.conditions = new Conditions(clock);
    this.writer = new RunStatusWriter(client);
    this.ports = ports;
    this.portRestarts = new PortTakenRestarts(ports, RUNS_DOMAIN);
    ports.onRelease(() -> waitingForPort.forEach(portWaits::propagateEvent));
  }

  /** Where sandboxes are claimed before one is started cold (docs/warm-pools.md). */
  public void claimFrom(WarmPools warmPools) {
    this.warmPools = warmPools;
  }

  /**
   * Who is told, in this process, of a run whose claimed sandbox is about to be recorded, then of
   * the run as written and its Pod: the worker of this replica, which then claims the run without
   * waiting for its watches (and leaves those to the hand-off). Other replicas hear of it by their
   * watches, as before.
   */
  public void handOffTo(SandboxHandOff handOff) {
    this.handOff = handOff;
  }

  /**
   * The sandbox Pods of runs (only those: selected by label), whose deletions free their ports, and
   * the wake-ups of runs waiting for a port.
   */
  public List<EventSource<?, Run>> eventSources(EventSourceContext<Run> context) {
    var config =
        InformerEventSourceConfiguration.from(Pod.class, Run.class)
            .withName(PODS)
            .withLabelSelector(AgentObjects.podSelector())
            .withSecondaryToPrimaryMapper(ComputerRuns::owningRun)
            .withOnDeleteFilter(ports::released)
            .withNamespacesInheritedFromController()
            .build();
    ports.signalsReleases(RUNS_DOMAIN);
    pods = new InformerEventSource<>(config, context);
    return List.of(pods, portWaits);
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
   * A Run has just been routed to the computer. A sandbox of its environment's warm pool is claimed
   * first, when one is ready, and the route, the operator's {@code started} event and the claimed
   * Pod are recorded in one write, after which the worker of this process is handed the run at once
   * (no watch round trip); a restart that finds the claim unrecorded adopts the Pod. Otherwise the
   * route and the {@code started} event are recorded first (so clients see {@code
   * computer.starting} at once and a restart never routes again), then the sandbox is made.
   */
  public UpdateControl<Run> start(Run run, RunStatus routed, Context<Run> context) {
    routed.setPhase(RunPhase.RUNNING.value());
    boolean poolTried = warmPools != null && warmPools.anyReady(run.getMetadata().getNamespace());
    Optional<Claimed> claimed = poolTried ? claimAtRouting(run, context) : Optional.empty();
    Optional<Run> written;
    // Announced before the write: its watch event may reach the worker before its answer comes.
    try (SandboxHandOff.Pending pending =
        claimed.isPresent() ? handOff.expect(run) : SandboxHandOff.Pending.NOTHING) {
      long writing = System.nanoTime();
      written =
          writer.write(
              run,
              context,
              status -> {
                if (status.getRoute() != null) {
                  return false; // another operator routed it first; the next reconcile goes on
                  // from there
                }
                status.setObservedGeneration(routed.getObservedGeneration());
                status.setPhase(routed.getPhase());
                status.setRoute(routed.getRoute());
                status.setRouteReason(routed.getRouteReason());
                status.setModel(routed.getModel());
                status.setStartedAt(routed.getStartedAt());
                status.setLastEventSeq(routed.getLastEventSeq());
                claimed.ifPresent(sandbox -> {
                  status.setPod(sandbox.pod().getMetadata().getName());
                  status.setStart(RunStatus.START_CLAIMED);
                });
                return true;
              });
      if (written.isPresent() && claimed.isPresent()) {
        warmPools.steps().since(StartStep.ROUTE_WRITE, writing);
        started(written.get(), claimed.get().pod(), claimed.get().environment());
        handOver(pending, written.get(), claimed.get().pod(), context);
        return UpdateControl.noUpdate();
      }
    }
    return written.isEmpty()
        ? UpdateControl.noUpdate()
        : launch(written.get(), context, !poolTried);
  }

  private static void handOver(
      SandboxHandOff.Pending pending, Run run, Pod pod, Context<Run> context) {
    pending.handOver(
        run, pod, context.getSecondaryResource(Secret.class).flatMap(SandboxCredential::read));
  }

  /** A pool sandbox claimed for a run, and the environment it serves. */
  private record Claimed(Pod pod, AgentEnvironment environment) {}

  /**
   * Claims a ready pool sandbox for a run being routed; empty when there is none to claim, or the
   * run's thread or environment is missing (its launch then says so).
   */
  private Optional<Claimed> claimAtRouting(Run run, Context<Run> context) {
    Future<Boolean> carriesFiles = warmPools.carriesFiles(run); // side by side with the reads
    AgentEnvironment environment;
    try {
      environment =
          warmPools
              .steps()
              .time(StartStep.ENVIRONMENT, () -> AgentEnvironment.ofRun(client, run, settings));
    } catch (AgentStartException e) {
      carriesFiles.cancel(true);
      return Optional.empty();
    }
    return claim(run, environment, carriesFiles, context).map(pod -> new Claimed(pod, environment));
  }

  /** Claims a ready sandbox of the environment's pool, guarded first by the run's dependents. */
  private Optional<Pod> claim(
      Run run, AgentEnvironment environment, Future<Boolean> carriesFiles, Context<Run> context) {
    Optional<Pod> claimed =
        warmPools.claim(
            run,
            environment,
            carriesFiles,
            port ->
                reconcileSandbox(
                    context, SandboxIntent.make(sandbox(run, environment, port), true)));
    claimed.ifPresent(pod -> pods.handleRecentResourceCreate(ResourceID.fromResource(pod), pod));
    return claimed;
  }

  /** A running computer Run: its sandbox moved, or it was asked to stop. */
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    if (Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      Optional<Instant> claimed =
          run.getSpec().getSupersededBy() != null
              ? RunClaims.liveUntil(run, clock.instant())
              : Optional.empty();
      if (claimed.isPresent()) {
        // Superseded by a newer message: the worker that holds it keeps (interrupt) or reverts
        // (rollback) the workspace's changes through the sandbox, then ends it, which removes the
        // sandbox; should that worker stop, its claim expires.
        return UpdateControl.<Run>noUpdate()
            .rescheduleAfter(Duration.between(clock.instant(), claimed.get()));
      }
      cancel(context);
      return UpdateControl.noUpdate();
    }
    if (SandboxCondition.failure(run.getStatus()).isPresent()) {
      // Reported: the worker ends the run; its sandbox is not made again and goes.
      removeSandbox(context, null);
      return UpdateControl.noUpdate();
    }
    switch (SandboxGiveBack.of(run.getStatus())) {
      case REQUESTED -> {
        return giveBack(run, context);
      }
      case GIVEN_BACK -> {
        return whileGivenBack(run, context);
      }
      case OVER -> takenAgain(run, context);
      default -> {
        // nothing given back, or a sandbox taken again: watched as any other
      }
    }
    if (run.getStatus().getPod() == null) {
      // Routed, but the sandbox was not made yet: the operator stopped in between, or a quota had
      // no room.
      if (agents.resolve(run.getMetadata().getNamespace(), run.getSpec().getAgent()).isEmpty()) {
        reportFailure(
            run,
            context,
            AgentOutcome.failed(
                RunErrorCode.EXECUTION_FAILED,
                "Agent " + run.getSpec().getAgent() + " does not exist"));
        removeSandbox(context, null);
        return UpdateControl.noUpdate();
      }
      return launch(run, context, true);
    }
    return watchSandbox(run, context);
  }

  /**
   * The worker kept the workspace of a run that waits long for a person and gave its sandbox up:
   * the status stops naming the Pod and says it was given back (so the Pod's going is no failure),
   * then the Pod goes.
   */
  private UpdateControl<Run> giveBack(Run run, Context<Run> context) {
    String pod = run.getStatus().getPod();
    String message =
        "Gave back sandbox Pod "
            + pod
            + " while call "
            + run.getStatus().getWaitingFor().getCallId()
            + " waits for a person; the workspace is kept and a sandbox is taken again when it is"
            + " answered";
    Optional<Run> written =
        writer.write(
            run,
            context,
            status -> {
              if (isTerminal(status) || SandboxGiveBack.of(status) != SandboxGiveBack.REQUESTED) {
                return false;
              }
              status.setPod(null);
              status.setStart(null);
              status.setConditions(
                  conditions.set(
                      status.getConditions(),
                      SandboxGiveBack.CONDITION,
                      Conditions.TRUE,
                      SandboxGiveBack.REASON_GIVEN_BACK,
                      message,
                      null));
              return true;
            });
    if (written.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.info("{}", message);
    }
    events.normal(client, run, "SandboxGivenBack", message);
    return whileGivenBack(written.get(), context);
  }

  /**
   * A run without its sandbox, waiting: the Pod it gave back goes first (a cold sandbox taken again
   * has the same name); once the call is answered (its spec changes) or its wait has timed out, a
   * sandbox is taken again — claimed from the warm pool when one is ready, else cold — and the
   * worker restores the workspace into it.
   */
  private UpdateControl<Run> whileGivenBack(Run run, Context<Run> context) {
    List<Pod> going = pods == null ? List.of() : List.copyOf(pods.getSecondaryResources(run));
    if (!going.isEmpty()) {
      going.stream()
          .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
          .forEach(pod -> client.resource(pod).delete());
      return UpdateControl.noUpdate(); // its deletion reconciles the run again
    }
    var wait = run.getStatus().getWaitingFor();
    if (RunAnswer.in(run, wait.getCallId()).isEmpty()) {
      Instant now = clock.instant();
      Instant timesOut =
          Timestamps.parse(wait.getSince()).orElse(now).plus(settings.worker().inputTimeout());
      if (now.isBefore(timesOut)) {
        return UpdateControl.<Run>noUpdate().rescheduleAfter(Duration.between(now, timesOut));
      }
    }
    return launch(run, context, true);
  }

  /** The wait that gave the sandbox back is over, on the sandbox taken again. */
  private void takenAgain(Run run, Context<Run> context) {
    writer.write(
        run,
        context,
        status -> {
          if (SandboxGiveBack.of(status) != SandboxGiveBack.OVER) {
            return false;
          }
          status.setConditions(
              conditions.set(
                  status.getConditions(),
                  SandboxGiveBack.CONDITION,
                  Conditions.FALSE,
                  SandboxGiveBack.REASON_TAKEN_AGAIN,
                  "The run took a sandbox again (" + status.getStart() + ") after its wait",
                  null));
          return true;
        });
  }

  /**
   * A run whose loop is in the worker: the worker writes its events and outcome; the computer path
   * only reports a sandbox Pod that ends (its deadline) or disappears before the run did.
   */
  private UpdateControl<Run> watchSandbox(Run run, Context<Run> context) {
    Optional<Pod> pod = pod(run, context);
    if (pod.isPresent()
        && pod.get().getMetadata().getName().equals(AgentObjects.podName(run))
        && portRestarts.shouldRestart(run, pod.get())) {
      return onAnotherPort(run, context, pod.get());
    }
    Optional<AgentOutcome> outcome = AgentOutcome.decide(pod, settings.agentPod().deadline());
    if (outcome.isPresent()) {
      // The report first: a worker that sees its sandbox go must find why in the Run.
      reportFailure(run, context, outcome.get());
      removeSandbox(context, null);
    }
    return UpdateControl.noUpdate();
  }

  /**
   * The run's cold sandbox never listened: another program held its port past the runner's retries.
   * The Pod goes, its port is handed to no one for a while, and the run's next reconcile makes the
   * sandbox again on another port ({@link PortTakenRestarts}; the credential stays, the
   * NetworkPolicy follows the port).
   */
  private UpdateControl<Run> onAnotherPort(Run run, Context<Run> context, Pod pod) {
    String name = pod.getMetadata().getName();
    // A reconcile after the status write makes the sandbox again (deleting this Pod if it is
    // still there), while a Pod gone from a status that still names it would fail the run.
    portRestarts.restart(
        client,
        events,
        run,
        pod,
        message ->
            writer.write(
                run,
                context,
                status -> {
                  if (isTerminal(status) || !name.equals(status.getPod())) {
                    return false;
                  }
                  status.setPod(null);
                  status.setStart(null);
                  return true;
                }));
    return UpdateControl.<Run>noUpdate().rescheduleAfter(REPLACED_POD_WAIT);
  }

  /**
   * What the namespace's runs spent that its ledger may not hold yet, from the informer's cache.
   */
  public Map<String, BigDecimal> uncountedSpend(String namespace, Context<Run> context) {
    return UncountedSpend.byRun(
        context.getPrimaryCache().byIndex(UncountedSpend.INDEX, namespace).stream(), pricing);
  }

  /**
   * Cancel: the Pod goes (with a short grace period). The worker, which sees the cancel in the
   * Run's spec too, ends the run {@code cancelled}.
   */
  private void cancel(Context<Run> context) {
    removeSandbox(context, settings.agentPod().cancelGracePeriod());
  }

  /** A finished Run: its sandbox's dependents go (those already gone are skipped). */
  public void cleanUpFinished(Run run, Context<Run> context) {
    portRestarts.forget(run);
    waitingForPort.remove(ResourceID.fromResource(run));
    removeSandbox(context, null);
  }

  /** The workflow deletes the run's sandbox: the Pod, then its credential and NetworkPolicy. */
  private static void removeSandbox(Context<Run> context, Duration grace) {
    reconcileSandbox(context, SandboxIntent.remove(grace));
  }

  /** Invokes the run's sandbox workflow for {@code intent}; a dependent's failure is thrown. */
  private static void reconcileSandbox(Context<Run> context, SandboxIntent intent) {
    intent.putInto(context);
    WorkflowReconcileResult result =
        context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    Optional<Exception> failure = result.getErroredDependents().values().stream().findFirst();
    if (failure.isPresent()) {
      throw failure.get() instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(failure.get());
    }
  }

  /**
   * @param tryPool whether a warm pool may be asked (not when the routing just found none ready)
   */
  private UpdateControl<Run> launch(Run run, Context<Run> context, boolean tryPool) {
    String namespace = run.getMetadata().getNamespace();
    Optional<Pod> replaced =
        pods == null
            ? Optional.empty()
            : pods.getSecondaryResources(run).stream()
                .filter(p -> portRestarts.replaced(run, p))
                .findFirst();
    if (replaced.isPresent()) {
      // The Pod given up for its taken port is still there (or in the cache): made again once it
      // left. Deleting it again is a no-op when it is gone already.
      client.resource(replaced.get()).withGracePeriod(0).delete();
      return UpdateControl.<Run>noUpdate().rescheduleAfter(REPLACED_POD_WAIT);
    }
    Optional<Pod> made = ownedPod(run);
    if (made.isPresent()) {
      // Made (or claimed) by a reconcile that stopped before it recorded it: adopted, not made
      // again.
      record(run, context, made.get());
      return UpdateControl.noUpdate();
    }
    Pod pod;
    try {
      ConversationThread thread = AgentEnvironment.thread(client, run);
      AgentEnvironment environment =
          AgentEnvironment.resolve(
              client, run, thread, settings.registry(), settings.runnerImage());
      pod = launchSandbox(run, thread, environment, context, tryPool);
      started(run, pod, environment);
    } catch (AgentStartException e) {
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.info("cannot start its sandbox: {}", e.getMessage());
      }
      events.warning(client, run, "SandboxStartFailed", e.getMessage());
      reportFailure(
          run, context, AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, e.getMessage()));
      removeSandbox(context, null);
      return UpdateControl.noUpdate();
    } catch (KubernetesClientException e) {
      Optional<String> quota = QuotaWait.refusal(e);
      if (quota.isEmpty()) {
        throw e;
      }
      return waitForQuota(run, context, quota.get());
    } catch (NoFreePort e) {
      return waitForPort(run, context, e.choice);
    }
    boolean claimed = PoolLabels.isPoolPod(pod); // claimed: ready now, handed over
    try (SandboxHandOff.Pending pending =
        claimed ? handOff.expect(run) : SandboxHandOff.Pending.NOTHING) {
      record(run, context, pod).ifPresent(recorded -> handOver(pending, recorded, pod, context));
    }
    return UpdateControl.noUpdate();
  }

  /** Logs and records (SandboxClaimed or SandboxStarted) how the run's sandbox started. */
  private void started(Run run, Pod pod, AgentEnvironment environment) {
    boolean claimed = PoolLabels.isPoolPod(pod);
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.info(
          "sandbox Pod {} started ({}) with image {}",
          pod.getMetadata().getName(),
          claimed ? RunStatus.START_CLAIMED : RunStatus.START_COLD,
          environment.image());
    }
    if (claimed) {
      events.normal(
          client,
          run,
          "SandboxClaimed",
          "Claimed the warm pool's ready sandbox Pod " + pod.getMetadata().getName());
    } else {
      events.normal(
          client,
          run,
          "SandboxStarted",
          "Started sandbox Pod "
              + pod.getMetadata().getName()
              + " cold with image "
              + environment.image());
    }
  }

  /** Records the run's sandbox Pod and how it started in the run's status. */
  private Optional<Run> record(Run run, Context<Run> context, Pod pod) {
    return writer.write(
        run,
        context,
        status -> {
          if (status.getPod() != null || isTerminal(status)) {
            return false;
          }
          status.setPod(pod.getMetadata().getName());
          status.setStart(
              PoolLabels.isPoolPod(pod) ? RunStatus.START_CLAIMED : RunStatus.START_COLD);
          SandboxCondition.waitOver(status);
          return true;
        });
  }

  /** A Pod the run owns already, as the sandbox Pod informer saw it (not one going away). */
  private Optional<Pod> ownedPod(Run run) {
    if (pods == null) {
      return Optional.empty();
    }
    return pods.getSecondaryResources(run).stream()
        .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
        .findFirst();
  }

  /**
   * The run's sandbox, by its workflow: the credential Secret and the NetworkPolicy before the Pod,
   * so that it never listens unprotected. A warm pool's Pod is claimed when one is ready (the
   * credential and policy made first, for its port); otherwise the Pod dependent starts one cold on
   * the thread's workspace claim. The worker runs the loop once the Pod is ready.
   */
  private Pod launchSandbox(
      Run run,
      ConversationThread thread,
      AgentEnvironment environment,
      Context<Run> context,
      boolean tryPool) {
    Optional<Pod> claimed =
        warmPools == null || !tryPool || !WarmPools.hasPool(environment)
            ? Optional.empty()
            : claim(run, environment, warmPools.carriesFiles(run), context);
    if (claimed.isPresent()) {
      return claimed.get();
    }
    WorkspaceClaim.ensure(client, thread, settings.agentPod());
    reconcileSandbox(
        context, SandboxIntent.make(sandbox(run, environment, sandboxPort(run)), false));
    return pods.get(new ResourceID(AgentObjects.podName(run), run.getMetadata().getNamespace()))
        .orElseThrow(() -> new IllegalStateException("the sandbox Pod was not made"));
  }

  private RunSandbox sandbox(Run run, AgentEnvironment environment, int port) {
    return new RunSandbox(
        run,
        environment,
        port,
        settings.containers().bindAddress(),
        settings.containers().worker(),
        settings.agentPod(),
        settings.network());
  }

  /**
   * On a Pod network every sandbox listens on the range's first port; where Pods share the host's
   * network (local mode) each gets a free one of the range.
   */
  private int sandboxPort(Run run) {
    ResourceID id = ResourceID.fromResource(run);
    // A waiter before the choice: a sandbox that goes meanwhile wakes it.
    waitingForPort.add(id);
    SandboxPorts.Choice choice =
        ports.choose(
            RUNS_DOMAIN,
            run.getMetadata().getNamespace(),
            AgentObjects.podName(run),
            pods == null ? Stream.of() : pods.list());
    if (choice.port().isEmpty()) {
      throw new NoFreePort(choice);
    }
    waitingForPort.remove(id);
    return choice.port().get();
  }

  /** Every port of the range is in use: the run waits for one. */
  private static final class NoFreePort extends RuntimeException {
    private final transient SandboxPorts.Choice choice;

    NoFreePort(SandboxPorts.Choice choice) {
      super(null, null, false, false);
      this.choice = choice;
    }
  }

  /**
   * Every port of the range is in use (by other sandboxes, or by programs of anyone's): the run
   * stays routed without a Pod, {@code SandboxReady=Unknown} ({@value
   * SandboxCondition#WAITING_FOR_PORT}) and a {@value #PORT_WAIT} Event saying so, until a port
   * frees — a sandbox that goes wakes it ({@link SandboxPorts#released}), a port avoided for a
   * while frees at its instant, a port held where no view shows it is looked at again as a quota is
   * — or until its deadline, as a quota wait.
   */
  private UpdateControl<Run> waitForPort(
      Run run, Context<Run> context, SandboxPorts.Choice choice) {
    String message =
        "Every port of "
            + settings.containers().range()
            + " is in use: the sandbox starts as soon as one is free";
    Duration waited = waitedToStart(run);
    Duration deadline = settings.agentPod().deadline();
    if (waited.compareTo(deadline) >= 0) {
      waitingForPort.remove(ResourceID.fromResource(run));
      return startTimedOut(
          run, context, "every port of " + settings.containers().range() + " was in use");
    }
    boolean firstTime =
        writer
            .write(
                run,
                context,
                status ->
                    !isTerminal(status)
                        && status.getPod() == null
                        && SandboxCondition.waiting(
                            run, status, SandboxCondition.WAITING_FOR_PORT, message, conditions))
            .isPresent();
    if (firstTime) {
      events.warning(client, run, PORT_WAIT, message);
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.info("waits for a free port of {}", settings.containers().range());
      }
    }
    Duration next = deadline.minus(waited);
    if (choice.timedRelease().isPresent()) {
      next = shorter(next, choice.timedRelease().get());
    }
    if (choice.heldUnseen()) {
      next = shorter(next, QuotaWait.nextRetry(waited));
    }
    return UpdateControl.<Run>noUpdate().rescheduleAfter(next);
  }

  private static Duration shorter(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** How long the routed run has waited for its sandbox (its start deadline counts from there). */
  private Duration waitedToStart(Run run) {
    Instant now = clock.instant();
    return Duration.between(Timestamps.parse(run.getStatus().getStartedAt()).orElse(now), now);
  }

  /**
   * The run's deadline passed before its sandbox could start: it ends {@code execution_timeout}.
   */
  private UpdateControl<Run> startTimedOut(Run run, Context<Run> context, String why) {
    reportFailure(
        run,
        context,
        AgentOutcome.failed(
            RunErrorCode.EXECUTION_TIMEOUT,
            "No agent Pod could start within "
                + settings.agentPod().deadline().toSeconds()
                + " s: "
                + why));
    removeSandbox(context, null);
    return UpdateControl.noUpdate();
  }

  /**
   * The namespace's ResourceQuota has no room for the agent yet: the run stays routed without a Pod
   * and tries again later, until its deadline (counted from its start) ends it with {@code
   * execution_timeout}.
   */
  private UpdateControl<Run> waitForQuota(Run run, Context<Run> context, String refusal) {
    Duration waited = waitedToStart(run);
    Duration deadline = settings.agentPod().deadline();
    if (waited.compareTo(deadline) >= 0) {
      return startTimedOut(run, context, refusal);
    }
    events.warning(
        client, run, "QuotaWait", "Waiting for room in the namespace's quota: " + refusal);
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.info(
          "waits for room in its namespace's quota ({} s so far): {}", waited.toSeconds(), refusal);
    }
    Duration retry = QuotaWait.nextRetry(waited);
    Duration left = deadline.minus(waited);
    return UpdateControl.<Run>noUpdate().rescheduleAfter(retry.compareTo(left) < 0 ? retry : left);
  }

  private static void logFailure(Run run, AgentOutcome failure) {
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.info("sandbox cannot serve it ({}): {}", failure.error().code(), failure.message());
    }
  }

  /**
   * Reports that the run's sandbox cannot serve it ({@link SandboxCondition}); the worker ends the
   * run with it. Never the run's phase: the outcome is the worker's to write.
   */
  private void reportFailure(Run run, Context<Run> context, AgentOutcome failure) {
    writer
        .write(
            run,
            context,
            status ->
                !isTerminal(status) && SandboxCondition.record(run, status, failure, conditions))
        .ifPresent(reported -> logFailure(reported, failure));
  }

  /**
   * The Run's Pod: from the informer, or — just after it was made, before the informer saw it — the
   * API.
   */
  private Optional<Pod> pod(Run run, Context<Run> context) {
    Optional<Pod> cached =
        pods.get(new ResourceID(AgentObjects.podName(run), run.getMetadata().getNamespace()));
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
