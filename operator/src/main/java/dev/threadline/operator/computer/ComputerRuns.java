package dev.threadline.operator.computer;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.kubernetes.IdempotentCreate;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.sandbox.SandboxPod;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.usage.RunUsages;
import dev.threadline.operator.usage.UsageLimits;
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
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The computer path: a Run routed to the computer gets an agent Pod, whose log becomes the Run's
 * event log as it is written, and whose end becomes the Run's outcome. Every step is idempotent —
 * deterministic names, create-if-absent, events recorded by the runner's seq, writes with
 * optimistic locking — so a restarted (or second) operator picks a run up where it was, never
 * starts a second Pod, and never runs a finished Run again.
 */
public final class ComputerRuns implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ComputerRuns.class);

  /** A log stream that broke while its Pod runs is read again after this pause. */
  static final Duration REFOLLOW_PAUSE = Duration.ofSeconds(1);

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final AgentProfiles agents;
  private final ModelPricing pricing;
  private final Clock clock;
  private final AgentLogs logs;
  private final RunStatusWriter writer;
  private final UsageLimits limits;
  private final SandboxPorts ports;
  private InformerEventSource<Pod, Run> pods;

  public ComputerRuns(
      KubernetesClient client,
      OperatorSettings settings,
      AgentProfiles agents,
      ModelPricing pricing,
      Clock clock,
      PodLogFollower follower,
      UsageLimits limits) {
    this.client = client;
    this.limits = limits;
    this.settings = settings;
    this.agents = agents;
    this.pricing = pricing;
    this.clock = clock;
    this.logs = new AgentLogs(follower);
    this.writer = new RunStatusWriter(client);
    this.ports = new SandboxPorts(settings.containers());
  }

  /** The agent Pods (only those: selected by label) and the log wake-ups. */
  public List<EventSource<?, Run>> eventSources(EventSourceContext<Run> context) {
    var config =
        InformerEventSourceConfiguration.from(Pod.class, Run.class)
            .withName("agent-pods")
            .withLabelSelector(AgentObjects.podSelector())
            .withSecondaryToPrimaryMapper(ComputerRuns::owningRun)
            .withNamespacesInheritedFromController()
            .build();
    pods = new InformerEventSource<>(config, context);
    return List.of(pods, logs.eventSource());
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
   * again), then start the agent.
   */
  public UpdateControl<Run> start(
      Run run,
      RunStatus routed,
      AgentProfile agent,
      Supplier<List<ChatMessage>> history,
      Context<Run> context) {
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
              status.setEvents(routed.getEvents());
              status.setDroppedEvents(routed.getDroppedEvents());
              return true;
            });
    return written
        .map(routedRun -> launch(routedRun, agent, history, context))
        .orElseGet(UpdateControl::noUpdate);
  }

  /** A running computer Run: its Pod moved, its log has news, or it was asked to stop. */
  public UpdateControl<Run> reconcile(
      Run run, Supplier<List<ChatMessage>> history, Context<Run> context) {
    if (Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      cancel(run, context);
      return UpdateControl.noUpdate();
    }
    if (run.getStatus().getPod() == null) {
      // Routed, but the Pod was not made yet: the operator stopped in between, or a quota had no
      // room.
      Optional<AgentProfile> agent =
          agents.resolve(run.getMetadata().getNamespace(), run.getSpec().getAgent());
      if (agent.isEmpty()) {
        finish(
            run,
            context,
            List.of(),
            AgentOutcome.failed(
                RunErrorCode.EXECUTION_FAILED,
                "Agent " + run.getSpec().getAgent() + " does not exist"));
        return UpdateControl.noUpdate();
      }
      return launch(run, agent.get(), history, context);
    }
    return follow(run, context);
  }

  private UpdateControl<Run> follow(Run run, Context<Run> context) {
    if (settings.worker().enabled()) {
      return watchSandbox(run, context);
    }
    ResourceID id = ResourceID.fromResource(run);
    long recorded = Objects.requireNonNullElse(run.getStatus().getRunnerSeq(), 0L);
    Optional<Pod> pod = pod(run, context);
    Optional<FollowedPod.Snapshot> log;
    UpdateControl<Run> control = UpdateControl.noUpdate();
    if (pod.isPresent() && !isPending(pod.get())) {
      FollowedPod followed = logs.follow(id, pod.get());
      FollowedPod.Snapshot snapshot = followed.snapshot(recorded);
      if (snapshot.endedEarly() && !hasEnded(pod.get())) {
        Duration since = Duration.between(snapshot.endedAt(), Instant.now());
        if (since.compareTo(REFOLLOW_PAUSE) >= 0) {
          LOG.info(
              "Run({}/{}) the agent log ended while the Pod runs; reading it again",
              id.getNamespace().orElse(""),
              id.getName());
          snapshot = logs.refollow(id, pod.get()).snapshot(recorded);
        } else {
          control = UpdateControl.<Run>noUpdate().rescheduleAfter(REFOLLOW_PAUSE.minus(since));
        }
      }
      log = Optional.of(snapshot);
    } else {
      log = logs.get(id).map(followed -> followed.snapshot(recorded));
    }

    List<RunnerEvent> pending = log.map(FollowedPod.Snapshot::pending).orElse(List.of());
    Optional<AgentOutcome> outcome = AgentOutcome.decide(pod, log, settings.agentPod().deadline());
    if (outcome.isPresent()) {
      finish(run, context, pending, outcome.get());
      cleanUp(run, pod.isPresent());
      return UpdateControl.noUpdate();
    }
    if (spendsBeyondAllowance(run, pending, context)) {
      stopForUsage(run, context, pending);
      return UpdateControl.noUpdate();
    }
    if (!pending.isEmpty()) {
      writer.write(
          run, context, status -> !isTerminal(status) && EventRecorder.record(status, pending) > 0);
    }
    return control;
  }

  /**
   * A run whose loop is in the worker: the worker writes its events and outcome; the operator only
   * ends it when its sandbox Pod ends (its deadline) or disappears before the worker did.
   */
  private UpdateControl<Run> watchSandbox(Run run, Context<Run> context) {
    Optional<Pod> pod = pod(run, context);
    Optional<AgentOutcome> outcome =
        AgentOutcome.decide(pod, Optional.empty(), settings.agentPod().deadline());
    if (outcome.isPresent()) {
      finish(run, context, List.of(), outcome.get());
      cleanUp(run, pod.isPresent());
    }
    return UpdateControl.noUpdate();
  }

  /**
   * Whether the runner's latest cumulative {@code usage} report, priced, together with what the
   * user's other runs spent (the ledger, and running runs so far) uses up the monthly allowance.
   * Asked only when a report arrives: one ledger read per report.
   */
  private boolean spendsBeyondAllowance(Run run, List<RunnerEvent> pending, Context<Run> context) {
    Optional<RunnerEvent> latest =
        pending.stream()
            .filter(event -> event.type() == RunnerEventType.USAGE)
            .reduce((earlier, later) -> later);
    if (latest.isEmpty()) {
      return false;
    }
    String model = run.getStatus().getModel();
    BigDecimal spent =
        model == null
            ? BigDecimal.ZERO
            : RunUsages.cost(pricing, model, ComputerStatus.usage(latest.get().data()));
    Map<String, BigDecimal> uncounted = uncountedSpend(run.getMetadata().getNamespace(), context);
    uncounted.put(run.getMetadata().getUid(), spent); // newer than the cached status
    return limits.exhausted(run.getMetadata().getNamespace(), uncounted);
  }

  /**
   * What the namespace's runs spent that its ledger may not hold yet, from the informer's cache.
   */
  public Map<String, BigDecimal> uncountedSpend(String namespace, Context<Run> context) {
    return UncountedSpend.byRun(context.getPrimaryCache().list(namespace), pricing);
  }

  /**
   * The allowance ran out mid-run: the Pod goes at once, the run fails with {@code
   * usage_exhausted}.
   */
  private void stopForUsage(Run run, Context<Run> context, List<RunnerEvent> pending) {
    logs.stop(ResourceID.fromResource(run));
    client
        .pods()
        .inNamespace(run.getMetadata().getNamespace())
        .withName(AgentObjects.podName(run))
        .withGracePeriod(0)
        .delete();
    finish(
        run,
        context,
        pending,
        AgentOutcome.failed(RunErrorCode.USAGE_EXHAUSTED, UsageLimits.EXHAUSTED_MESSAGE));
    cleanUp(run, false);
  }

  /** Cancel: the Pod goes (with a short grace period), the run ends {@code cancelled}. */
  private void cancel(Run run, Context<Run> context) {
    ResourceID id = ResourceID.fromResource(run);
    long recorded = Objects.requireNonNullElse(run.getStatus().getRunnerSeq(), 0L);
    // What the runner said before it was stopped is kept; what it says while stopping is not.
    List<RunnerEvent> pending =
        logs.get(id).map(followed -> followed.snapshot(recorded).pending()).orElse(List.of());
    logs.stop(id);
    // By its deterministic name: it may exist even if status.pod was not written yet.
    client
        .pods()
        .inNamespace(run.getMetadata().getNamespace())
        .withName(AgentObjects.podName(run))
        .withGracePeriod(settings.agentPod().cancelGracePeriod().toSeconds())
        .delete();
    finish(run, context, pending, AgentOutcome.cancelled());
    cleanUp(run, false);
  }

  /** A finished Run: make sure its Pod and the objects that only served the Pod are gone. */
  public void cleanUpFinished(Run run, Context<Run> context) {
    ResourceID id = ResourceID.fromResource(run);
    logs.stop(id);
    if (run.getStatus() != null
        && run.getStatus().getPod() != null
        && context.getSecondaryResource(Pod.class).isPresent()) {
      cleanUp(run, true);
    }
  }

  private void cleanUp(Run run, boolean deletePod) {
    logs.stop(ResourceID.fromResource(run));
    String namespace = run.getMetadata().getNamespace();
    if (deletePod) {
      client.pods().inNamespace(namespace).withName(AgentObjects.podName(run)).delete();
    }
    // Kept: the input Secret (owned by the Run) and the workspace (owned by the Thread).
    client.secrets().inNamespace(namespace).withName(AgentObjects.modelKeySecretName(run)).delete();
    RunSandbox.deleteAccess(client, run);
  }

  private UpdateControl<Run> launch(
      Run run, AgentProfile agent, Supplier<List<ChatMessage>> history, Context<Run> context) {
    String namespace = run.getMetadata().getNamespace();
    Pod pod;
    try {
      ConversationThread thread = AgentEnvironment.thread(client, run);
      AgentEnvironment environment =
          AgentEnvironment.resolve(
              client, run, thread, settings.registry(), settings.runnerImage());
      if (settings.worker().enabled()) {
        pod = launchSandbox(run, thread, environment);
      } else {
        ModelSettings model = settings.model();
        boolean modelKey = agent.provider().equals(model.provider()) && model.hasApiKey();
        String runJson = RunJson.of(run, agent, model, history.get(), environment.spec());
        IdempotentCreate.createOrGet(client, WorkspaceClaim.of(thread, settings.agentPod()));
        IdempotentCreate.createOrGet(client, RunInputSecret.of(run, runJson));
        if (modelKey) {
          IdempotentCreate.createOrGet(client, ModelKeySecret.of(run, model.apiKey()));
        }
        IdempotentCreate.createOrGet(
            client,
            AgentNetworkPolicy.of(
                run, agent, model, environment.internetAccess(), settings.network()));
        pod =
            IdempotentCreate.createOrGet(
                client,
                new AgentPod(run, environment, modelKey, model, settings.agentPod()).build());
      }
      LOG.info(
          "Run({}/{}) agent Pod {} started with image {}",
          namespace,
          run.getMetadata().getName(),
          pod.getMetadata().getName(),
          environment.image());
    } catch (AgentStartException e) {
      LOG.info(
          "Run({}/{}) cannot start its agent: {}",
          namespace,
          run.getMetadata().getName(),
          e.getMessage());
      finish(
          run,
          context,
          List.of(),
          AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, e.getMessage()));
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
          return true;
        });
    return UpdateControl.noUpdate();
  }

  /**
   * The run's sandbox: the workspace claim, the credential Secret and the NetworkPolicy before the
   * Pod, so that it never listens unprotected. The worker runs the loop once the Pod is ready.
   */
  private Pod launchSandbox(Run run, ConversationThread thread, AgentEnvironment environment) {
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
    Map<String, Integer> held =
        pods == null
            ? Map.of()
            : pods.list()
                .filter(pod -> SandboxPod.port(pod).isPresent())
                .collect(
                    Collectors.toMap(
                        pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
                        pod -> SandboxPod.port(pod).orElseThrow(),
                        (a, b) -> a));
    String key = run.getMetadata().getNamespace() + "/" + AgentObjects.podName(run);
    return ports
        .allocate(key, held)
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
          List.of(),
          AgentOutcome.failed(
              RunErrorCode.EXECUTION_TIMEOUT,
              "No agent Pod could start within " + deadline.toSeconds() + " s: " + refusal));
      cleanUp(run, false);
      return UpdateControl.noUpdate();
    }
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

  private void finish(
      Run run, Context<Run> context, List<RunnerEvent> pending, AgentOutcome outcome) {
    Instant now = clock.instant();
    writer
        .write(
            run, context, status -> ComputerStatus.finish(status, pending, outcome, now, pricing))
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

  private static boolean isPending(Pod pod) {
    return pod.getStatus() == null
        || pod.getStatus().getPhase() == null
        || "Pending".equals(pod.getStatus().getPhase());
  }

  private static boolean hasEnded(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static boolean isTerminal(RunStatus status) {
    return status.getPhase() != null && RunPhase.fromValue(status.getPhase()).isTerminal();
  }

  @Override
  public void close() {
    logs.close();
  }
}
