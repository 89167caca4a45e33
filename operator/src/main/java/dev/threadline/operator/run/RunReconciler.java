package dev.threadline.operator.run;

import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.routing.Route;
import dev.threadline.core.routing.RoutingDecision;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.ComputerRuns;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.RunSandboxCredentialDependentResource;
import dev.threadline.operator.computer.RunSandboxNetworkPolicyDependentResource;
import dev.threadline.operator.computer.RunSandboxPodDependentResource;
import dev.threadline.operator.computer.SandboxWanted;
import dev.threadline.operator.computer.UncountedSpend;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.model.ModelCatalog;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.usage.HistoryQuota;
import dev.threadline.operator.usage.RunUsages;
import dev.threadline.operator.usage.UsageLimits;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each Run and executes the direct path: one model call that decides and answers (see {@link
 * RunRouter}), whose answer, usage, cost and duration are written to the Run's status in a single
 * patch. Runs routed to the computer are handed to {@link ComputerRuns} from then on; their sandbox
 * (credential Secret, NetworkPolicy, Pod after both) is this controller's workflow of dependents,
 * invoked by {@link ComputerRuns} only for computer runs: made while the run works, deleted once it
 * has ended ({@link SandboxWanted}).
 */
@Workflow(
    explicitInvocation = true,
    handleExceptionsInReconciler = true,
    dependents = {
      @Dependent(
          name = RunSandboxCredentialDependentResource.NAME,
          type = RunSandboxCredentialDependentResource.class,
          reconcilePrecondition = SandboxWanted.class),
      @Dependent(
          name = RunSandboxNetworkPolicyDependentResource.NAME,
          type = RunSandboxNetworkPolicyDependentResource.class,
          reconcilePrecondition = SandboxWanted.class),
      @Dependent(
          name = RunSandboxPodDependentResource.NAME,
          type = RunSandboxPodDependentResource.class,
          reconcilePrecondition = SandboxWanted.class,
          useEventSourceWithName = ComputerRuns.PODS,
          dependsOn = {
            RunSandboxCredentialDependentResource.NAME,
            RunSandboxNetworkPolicyDependentResource.NAME
          })
    })
@ControllerConfiguration(
    name = "run",
    generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = RunChanges.class))
public class RunReconciler implements Reconciler<Run> {
  private static final Logger LOG = LoggerFactory.getLogger(RunReconciler.class);
  private final Conditions conditions;
  private final RunReadiness readiness;
  private static final RunOutcome CANCELLED =
      RunOutcome.failed(RunErrorCode.CANCELLED, "Cancelled on request", Usage.ZERO);

  private final AgentProfiles agents;
  private final ModelCatalog models;
  private final ModelPricing pricing;
  private final DirectAnswer direct = new DirectAnswer();
  private final RunRouter router = new RunRouter(direct);
  private final Clock clock;
  private final ComputerRuns computer;
  private final UsageLimits limits;
  private final AgentTracing tracing;
  private final DeltaHub deltas;
  private final RunEventLog log;
  private final HistoryQuota quota;
  private final RunContent content;
  private final RunEvents events;

  public RunReconciler(
      AgentProfiles agents,
      ModelCatalog models,
      ModelPricing pricing,
      Clock clock,
      ComputerRuns computer,
      UsageLimits limits,
      AgentTracing tracing,
      DeltaHub deltas,
      RunEventLog log,
      HistoryQuota quota,
      KubernetesEvents events) {
    this.log = log;
    this.quota = quota;
    this.events = new RunEvents(events);
    this.content = new RunContent(log.history());
    this.limits = limits;
    this.tracing = tracing;
    this.deltas = deltas;
    this.agents = agents;
    this.models = models;
    this.pricing = pricing;
    this.clock = clock;
    this.computer = computer;
    this.conditions = new Conditions(clock);
    this.readiness = new RunReadiness(conditions);
  }

  @Override
  public List<EventSource<?, Run>> prepareEventSources(EventSourceContext<Run> context) {
    context.getPrimaryCache().addIndexer(UncountedSpend.INDEX, UncountedSpend::indexKeys);
    context.getPrimaryCache().addIndexer(RunQueue.INDEX, RunQueue::indexKeys);
    List<EventSource<?, Run>> sources = new ArrayList<>(computer.eventSources(context));
    sources.add(RunQueue.wakeups(context.getPrimaryCache()));
    return sources;
  }

  @Override
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    if (run.isMarkedForDeletion()) {
      // Neither routed nor ended here: the usage finalizer ends it once its loop has stopped.
      return UpdateControl.noUpdate();
    }
    RunPhase phase = RunPhase.of(run);
    if (phase.isTerminal()) {
      if (Route.COMPUTER.value().equals(run.getStatus().getRoute())) {
        computer.cleanUpFinished(run, context);
      }
      if (RunPhase.undone(run)) {
        return remove(run, context);
      }
      // The worker ends computer runs; the Ready condition follows here, in one write.
      return RunReadiness.holds(run.getStatus())
          ? UpdateControl.noUpdate()
          : patch(run, run.getStatus(), context);
    }
    if (run.getStatus() != null && Route.COMPUTER.value().equals(run.getStatus().getRoute())) {
      return computer.reconcile(run, context);
    }
    if ((run.getStatus() == null || run.getStatus().getStartedAt() == null)
        && !Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      Optional<Run> ahead = RunQueue.ahead(run, context.getPrimaryCache());
      if (ahead.isPresent()) {
        // Reconciled again when the run ahead ends or goes (RunQueue's wakeups), not on a timer.
        LOG.debug("waits for {} of its thread", ahead.get().getMetadata().getName());
        return UpdateControl.noUpdate();
      }
    }
    Instant started = clock.instant();
    RunStatus status = run.getStatus() == null ? new RunStatus() : run.getStatus();
    status.setObservedGeneration(run.getMetadata().getGeneration());
    if (status.getStartedAt() == null) {
      status.setStartedAt(Timestamps.format(started));
      // A schedule's run reaches us without the api-server's check of the user's history quota.
      Optional<String> full = quota.refusal(run, content.message(run));
      if (full.isPresent()) {
        finish(
            run,
            status,
            RunOutcome.failed(RunErrorCode.EXECUTION_FAILED, full.get(), Usage.ZERO),
            null,
            started);
        return patch(run, status, context);
      }
      // Its first reconcile: the whole message goes to the store before anything about the run.
      content.recordMessage(run);
    }
    if (Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      finish(run, status, CANCELLED, null, started);
      return patch(run, status, context);
    }
    // Runs that schedules fire reach us without the api-server's 402, and the api-server does not
    // know what running runs spent so far: refuse here too.
    String namespace = run.getMetadata().getNamespace();
    if (status.getRoute() == null
        && limits.exhausted(namespace, computer.uncountedSpend(namespace, context))) {
      finish(
          run,
          status,
          RunOutcome.failed(
              RunErrorCode.USAGE_EXHAUSTED, UsageLimits.EXHAUSTED_MESSAGE, Usage.ZERO),
          null,
          started);
      return patch(run, status, context);
    }

    Optional<AgentProfile> agent =
        agents.resolve(run.getMetadata().getNamespace(), run.getSpec().getAgent());
    if (agent.isEmpty()) {
      finish(
          run,
          status,
          RunOutcome.failed(
              RunErrorCode.EXECUTION_FAILED,
              "Agent " + run.getSpec().getAgent() + " does not exist",
              Usage.ZERO),
          null,
          started);
      return patch(run, status, context);
    }
    ModelProvider provider;
    try {
      provider =
          tracing.directAgent(
              run,
              new BoundedModel(
                  models.provider(agent.get().provider()),
                  models.configured().timeout(),
                  () -> cancelRequested(run, context)));
    } catch (ModelException | IllegalArgumentException e) {
      finish(
          run,
          status,
          RunOutcome.failed(RunErrorCode.EXECUTION_FAILED, e.getMessage(), Usage.ZERO),
          agent.get(),
          started);
      return patch(run, status, context);
    }

    // Only a run not yet routed calls the model here: only it may stream deltas. The channel is
    // closed on every way out, an exception included: its readers would otherwise wait for it.
    try (DirectDeltas live =
        status.getRoute() == null
            ? DirectDeltas.open(deltas, run, status, context.getClient())
            : DirectDeltas.NONE) {
      return route(run, context, status, agent.get(), provider, live, started);
    } catch (BoundedModel.Cancelled cancelled) {
      // The model call was abandoned; what it wrote so far was sent, the answer is not kept.
      finish(run, status, CANCELLED, agent.get(), started);
      LOG.info("cancelled while its model call was in flight");
      return patch(run, status, context);
    }
  }

  /**
   * A run a {@code rollback} message undid, now ended: its content leaves the history store and the
   * Run goes (its usage finalizer still counts what it spent), so the thread's messages, logs,
   * diffs and the next run's conversation no longer hold it. Done again after a failure: both steps
   * may repeat.
   */
  private UpdateControl<Run> remove(Run run, Context<Run> context) {
    content.history().deleteRun(RunEventLog.key(run));
    context.getClient().resource(run).delete();
    LOG.info("rolled back: removed from its thread's history");
    return UpdateControl.noUpdate();
  }

  /** Whether the run's latest version (the informer's, updated while this reconcile waits) asks. */
  private static boolean cancelRequested(Run run, Context<Run> context) {
    return context
        .getPrimaryCache()
        .get(ResourceID.fromResource(run))
        .map(latest -> Boolean.TRUE.equals(latest.getSpec().getCancelRequested()))
        .orElse(false);
  }

  /**
   * Routes the run (unless it was routed before) and, on the direct path, answers it; streams the
   * model's text to {@code live} as it is written.
   */
  private UpdateControl<Run> route(
      Run run,
      Context<Run> context,
      RunStatus status,
      AgentProfile agent,
      ModelProvider provider,
      DirectDeltas live,
      Instant started) {
    boolean attachments =
        run.getSpec().getAttachments() != null && !run.getSpec().getAttachments().isEmpty();
    List<ChatMessage> history = content.conversation(run);
    TextDeltas listener = live.text(run);
    RunRouter.Routed routed =
        status.getRoute() != null
            ? new RunRouter.Routed(
                new RoutingDecision(Route.fromValue(status.getRoute()), status.getRouteReason()),
                Optional.empty())
            : router.route(
                history.getLast().content(), attachments, agent, provider, history, listener);
    RoutingDecision decision = routed.decision();
    if (status.getRoute() == null) {
      events.routed(context.getClient(), run, decision.route());
    }
    status.setRoute(decision.route().value());
    status.setRouteReason(decision.reason());
    status.setModel(agent.model());
    Map<String, Object> routing = new LinkedHashMap<>();
    routing.put("route", decision.route().value());
    routing.put("reason", decision.reason());
    routing.put("model", agent.model());
    // The computer agent is given the task the model handed over (see ComputerHandoff.task).
    routed.task().ifPresent(task -> routing.put(ComputerHandoff.TASK, task));
    if (decision.route() == Route.COMPUTER && !Usage.ZERO.equals(routed.spent())) {
      // The call that handed the message over was billed: the worker's usage starts from it. In
      // the routing entry, not status.usage: that is the worker's to write (one writer a field).
      routing.put(ComputerStatus.ROUTING_USAGE, ComputerStatus.usageData(routed.spent()));
    }
    log.append(run, status, "started", started, routing);

    if (decision.route() == Route.COMPUTER) {
      // Whatever the model wrote before it handed over was sent; the worker streams the rest.
      live.close();
      return computer.start(run, status, context);
    }
    RunOutcome outcome =
        routed.answer().orElseGet(() -> direct.answer(agent, provider, history, listener));
    finish(run, status, outcome, agent, started);
    live.end(status);
    LOG.info(
        "{} via {} in {} ms", status.getPhase(), decision.route().value(), status.getDurationMs());
    return patch(run, status, context);
  }

  private void finish(
      Run run, RunStatus status, RunOutcome outcome, AgentProfile agent, Instant started) {
    Instant now = clock.instant();
    Instant begun = Timestamps.parse(status.getStartedAt()).orElse(started);
    status.setCompletedAt(Timestamps.format(now));
    status.setDurationMs(Math.max(0, Duration.between(begun, now).toMillis()));
    status.setUsage(RunUsages.of(outcome.usage()));
    status.setCost(
        agent == null
            ? 0.0
            : RunUsages.cost(pricing, agent.model(), outcome.usage()).doubleValue());
    Map<String, Object> result = new LinkedHashMap<>();
    if (outcome.succeeded()) {
      content.recordResponse(run, outcome.response());
      status.setPhase(RunPhase.COMPLETED.value());
      status.setResponse(RunContent.preview(outcome.response()));
      Map<String, Object> message = new LinkedHashMap<>();
      message.put("role", "assistant");
      message.put("text", outcome.response());
      if (Boolean.TRUE.equals(run.getSpec().getStreamTokens())) {
        message.put(DeltaWire.ITEM_ID, DirectDeltas.itemId(run)); // the id its deltas carried
      }
      log.append(run, status, "message", now, message);
    } else {
      status.setPhase(
          outcome.errorCode() == RunErrorCode.CANCELLED
              ? RunPhase.CANCELLED.value()
              : RunPhase.FAILED.value());
      RunError error = new RunError();
      error.setCode(outcome.errorCode().code());
      error.setMessage(RunContent.errorMessage(outcome.errorMessage()));
      status.setError(error);
      result.put("error", Map.of("code", error.getCode(), "message", outcome.errorMessage()));
    }
    result.put("phase", status.getPhase());
    result.put("durationMs", status.getDurationMs());
    result.put(
        "usage",
        Map.of(
            "inputTokens",
            outcome.usage().inputTokens(),
            "outputTokens",
            outcome.usage().outputTokens(),
            "cachedTokens",
            outcome.usage().cachedTokens()));
    log.append(run, status, outcome.succeeded() ? "result" : "failed", now, result);
  }

  /** The reconcile's one status write, with the Ready condition the phase calls for. */
  private UpdateControl<Run> patch(Run run, RunStatus status, Context<Run> context) {
    if (readiness.apply(run, status)) {
      events.ended(context.getClient(), run, status);
    }
    run.setStatus(status);
    return UpdateControl.patchStatus(run);
  }

  @Override
  public ErrorStatusUpdateControl<Run> updateErrorStatus(
      Run run, Context<Run> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, run, RunStatus::new, e);
  }
}
