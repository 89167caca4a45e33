package dev.threadline.operator;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.history.History;
import dev.threadline.history.HistorySettings;
import dev.threadline.operator.agent.AgentReconciler;
import dev.threadline.operator.computer.ComputerRuns;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.container.ContainerReconciler;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.environment.EnvironmentReconciler;
import dev.threadline.operator.health.OperatorHttpEndpoints;
import dev.threadline.operator.kubernetes.InformerLists;
import dev.threadline.operator.kubernetes.InformerStops;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ReconcileFailureLog;
import dev.threadline.operator.kubernetes.ReconcileRetry;
import dev.threadline.operator.kubernetes.TokenCloner;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.model.AgentProfiles;
import dev.threadline.operator.model.ModelCatalog;
import dev.threadline.operator.pool.PoolSandboxBind;
import dev.threadline.operator.pool.PoolSettings;
import dev.threadline.operator.pool.WarmPoolReconciler;
import dev.threadline.operator.pool.WarmPools;
import dev.threadline.operator.pool.WorkspaceArchives;
import dev.threadline.operator.retention.RunArchiver;
import dev.threadline.operator.retention.ThreadArchiver;
import dev.threadline.operator.retention.UnclaimedBodySweep;
import dev.threadline.operator.run.RunBookkeeping;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.run.RunReconciler;
import dev.threadline.operator.sandbox.SandboxPorts;
import dev.threadline.operator.schedule.ScheduleReconciler;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.thread.ThreadReconciler;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.usage.DirectAnswerLimit;
import dev.threadline.operator.usage.HistoryQuota;
import dev.threadline.operator.usage.RunUsageRecorder;
import dev.threadline.operator.usage.TenantPlans;
import dev.threadline.operator.usage.UsageLedgers;
import dev.threadline.operator.usage.UsageLimits;
import dev.threadline.operator.webhooks.BuildWebhooks;
import dev.threadline.operator.webhooks.WebhookDeliveryReconciler;
import dev.threadline.operator.worker.AgentWorker;
import dev.threadline.operator.worker.ClusterRunTasks;
import dev.threadline.operator.worker.DeletedRuns;
import dev.threadline.operator.worker.LedgerAllowance;
import dev.threadline.operator.worker.PlatformModels;
import dev.threadline.operator.worker.PodSandboxLocator;
import dev.threadline.operator.worker.SandboxClient;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the operator by hand (no DI container): one java-operator-sdk {@link Operator}, the
 * reconcilers, leader election and the health/metrics endpoints.
 */
public final class ThreadlineOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ThreadlineOperator.class);
  static final String LEASE_NAME = "threadline-operator";

  /** The operator's {@code service.name} in traces (unless {@code OTEL_SERVICE_NAME} says else). */
  public static final String SERVICE_NAME = "threadline-operator";

  /**
   * How long the first lists of all informers may take before the operator gives up starting:
   * JOSDK's default (2 minutes) is too short for 100,000 stored threads on a busy 2-core machine.
   */
  static final Duration CACHE_SYNC_TIMEOUT = Duration.ofMinutes(10);

  private final Operator operator;
  private final PrometheusMeterRegistry metrics;
  private volatile List<AutoCloseable> resources;
  private final DeltaHub deltas;
  private final AtomicBoolean stopping;
  private volatile OperatorHttpEndpoints endpoints;

  private final History history;

  /** The store the operator keeps conversation content in. */
  public History history() {
    return history;
  }

  private ThreadlineOperator(
      Operator operator,
      PrometheusMeterRegistry metrics,
      List<AutoCloseable> resources,
      DeltaHub deltas,
      AtomicBoolean stopping,
      History history) {
    this.history = history;
    this.stopping = stopping;
    this.operator = operator;
    this.metrics = metrics;
    this.resources = resources;
    this.deltas = deltas;
  }

  /** Starts reconciling with this client (which the operator does not close). */
  public static ThreadlineOperator start(KubernetesClient client, OperatorSettings settings) {
    return start(client, settings, Clock.systemUTC());
  }

  public static ThreadlineOperator start(
      KubernetesClient client, OperatorSettings settings, Clock clock) {
    return start(client, settings, clock, Telemetry.off());
  }

  /**
   * With traces: runs and their model and tool calls become GenAI spans (the caller owns {@code
   * telemetry} and closes it after the operator). Conversation content goes to a temporary history
   * store, gone with the operator: for tests and embedding; a deployment names its store.
   */
  public static ThreadlineOperator start(
      KubernetesClient client, OperatorSettings settings, Clock clock, Telemetry telemetry) {
    History history = History.temporary();
    try {
      ThreadlineOperator started = start(client, settings, clock, telemetry, history);
      started.resources = append(started.resources, history);
      return started;
    } catch (RuntimeException e) {
      history.close();
      throw e;
    }
  }

  private static List<AutoCloseable> append(List<AutoCloseable> resources, AutoCloseable last) {
    List<AutoCloseable> all = new java.util.ArrayList<>(resources);
    all.add(last);
    return List.copyOf(all);
  }

  /**
   * With the history store that keeps conversation content (owned by the caller, closed after the
   * operator).
   */
  public static ThreadlineOperator start(
      KubernetesClient client,
      OperatorSettings settings,
      Clock clock,
      Telemetry telemetry,
      History history) {
    AgentTracing tracing = new AgentTracing(telemetry.tracer());
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicBoolean stopping = new AtomicBoolean();
    ReconcileFailureLog.install();
    Operator operator =
        new Operator(o -> {
          o.withKubernetesClient(client)
              .withCloseClientOnStop(false)
              .withInformerStoppedHandler(new InformerStops(stopping::get))
              .withCacheSyncTimeout(CACHE_SYNC_TIMEOUT)
              .withResourceCloner(new TokenCloner(client.getKubernetesSerialization()))
              // Reconciles block on I/O (API calls, webhook POSTs with a 10 s timeout): on virtual
              // threads a slow webhook receiver holds no platform thread. Bounded, because a
              // restart over many stored objects would otherwise open one connection per object.
              .withExecutorService(
                  Executors.newFixedThreadPool(
                      settings.reconcileThreads(), Thread.ofVirtual().factory()))
              // Plain JSON patches: server-side apply is not available on every API server we
              // target.
              .withUseSSAToPatchPrimaryResource(false)
              .withSSABasedCreateUpdateMatchForDependentResources(false)
              // Per controller, not per resource: a series per Run would grow without bound.
              .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(metrics));
          if (settings.leaderElection()) {
            o.withLeaderElectionConfiguration(
                new LeaderElectionConfiguration(LEASE_NAME, settings.leaseNamespace()));
          }
        });
    OperatorMetrics product = new OperatorMetrics(metrics);
    Conditions conditions = new Conditions(clock);
    // The one recorder of Events: its correlation and budgets are per object, across controllers.
    // It writes in the background: no reconcile waits for an Event's round trip.
    KubernetesEvents events = KubernetesEvents.inBackground(clock);
    AgentProfiles agents = new AgentProfiles(client, settings.model());
    ModelCatalog models = new ModelCatalog(settings.model());
    ModelPricing pricing = ModelPricing.parse(settings.modelPrices());
    register(operator, new AgentReconciler(conditions, pricing), settings);
    UsageLedgers ledgers = new UsageLedgers(client, settings.watchNamespaces());
    TenantPlans tenants = new TenantPlans(client, settings.usagePlans());
    // The run controller runs beside the ledgers' writer (the usage recorder), whose writes its
    // cache holds at once; a worker may run on another replica and reads the ledger from the API.
    UsageLimits limits = new UsageLimits(tenants, ledgers::cached, clock);
    UsageLimits workerLimits = new UsageLimits(tenants, ledgers::get, clock);
    // One chooser of sandbox ports for runs, pools and containers: where Pods share the host's
    // network, each kind's view alone would hand out a port another kind's sandbox has.
    SandboxPorts ports = new SandboxPorts(settings.containers());
    ComputerRuns computer =
        new ComputerRuns(client, settings, agents, pricing, clock, ports, events);
    // Conversation content goes to the history store first, then the Run's status announces it.
    RunEventLog log = new RunEventLog(history);
    ComputerStatus statuses =
        new ComputerStatus(new EventRecorder(log, settings.history().toolOutput()));
    WorkspaceArchives archives =
        new WorkspaceArchives(
            client, history.workspaces(), clock, settings.history().workspaceArchive());
    // The worker writes a computer run's outcome with its own client, whose requests name it.
    KubernetesClient workerClient = AgentWorker.ownClient(client);
    DeltaHub deltas = new DeltaHub(settings.deltas());
    register(
        operator,
        new RunReconciler(
            agents,
            models,
            pricing,
            clock,
            computer,
            limits,
            tracing,
            deltas,
            log,
            new HistoryQuota(history, settings.history().historyBytes()),
            events),
        settings);
    WarmPoolReconciler pools =
        new WarmPoolReconciler(
            client, settings, PoolSettings.fromEnvironment(System.getenv()), ports, clock, events);
    register(operator, pools, settings);
    WarmPools warmPools = new WarmPools(client, pools, settings, product, clock, archives);
    computer.claimFrom(warmPools);
    RunUsageRecorder usage =
        new RunUsageRecorder(
            client,
            ledgers,
            tenants,
            clock,
            product,
            new DeletedRuns(
                workerClient, pricing, settings.agentPod().cancelGracePeriod(), clock, statuses),
            DirectAnswerLimit.of(settings.model()));
    RunBookkeeping bookkeeping =
        new RunBookkeeping(
            client, usage, new RunArchiver(client, history, settings.retention(), clock), clock);
    register(operator, bookkeeping, settings, o -> o.withOnUpdateFilter(bookkeeping.eventFilter()));
    register(
        operator,
        new ThreadReconciler(
            clock, new ThreadArchiver(client, history, settings.retention(), clock)),
        settings);
    register(
        operator,
        new EnvironmentReconciler(client, settings, conditions, clock, product, events),
        settings);
    register(
        operator,
        new ScheduleReconciler(
            settings.triggerImage(), settings.threadLimit(), conditions, clock, telemetry),
        settings);
    register(
        operator,
        new ContainerReconciler(
            client,
            settings,
            conditions,
            clock,
            warmPools,
            PoolSandboxBind.over(client, new SandboxClient()),
            ports),
        settings);
    register(operator, new BuildWebhooks(client, clock), settings);
    WebhookDeliveryReconciler webhooks =
        new WebhookDeliveryReconciler(client, settings.webhooks(), clock, product);
    register(operator, webhooks, settings);
    operator.start();
    // Every replica works on runs (claims share them), leader or not.
    PodSandboxLocator sandboxes =
        new PodSandboxLocator(
            client, singleNamespace(settings), new SandboxClient(), product, clock, archives);
    AgentWorker worker =
        new AgentWorker(
                workerClient,
                settings.worker(),
                new ClusterRunTasks(client, agents, settings, log),
                new PlatformModels(settings.model()),
                sandboxes,
                new SandboxClient(),
                pricing,
                new LedgerAllowance(workerLimits, pricing),
                deltas,
                clock,
                tracing,
                warmPools.steps(),
                statuses,
                product)
            .start();
    computer.handOffTo(worker::expectHandOff);
    // Long message bodies whose Run was never made leave the store after a while.
    UnclaimedBodySweep bodies = UnclaimedBodySweep.start(history, clock);
    List<AutoCloseable> resources =
        List.of(
            worker, sandboxes, agents, models, webhooks, workerClient, ledgers, tenants, bodies);

    ThreadlineOperator started =
        new ThreadlineOperator(operator, metrics, resources, deltas, stopping, history);
    if (settings.healthPort() >= 0) {
      try {
        started.serveHttpEndpoints(new InetSocketAddress(settings.healthPort()));
      } catch (UncheckedIOException e) {
        started.close();
        throw e;
      }
    }
    LOG.info(
        "Threadline operator started (namespaces: {}, leader election: {})",
        settings.watchNamespaces().isEmpty() ? "all" : settings.watchNamespaces(),
        settings.leaderElection());
    return started;
  }

  /** The one namespace watched, or null for all (several are filtered by the worker's claims). */
  private static String singleNamespace(OperatorSettings settings) {
    return settings.watchNamespaces().size() == 1
        ? settings.watchNamespaces().iterator().next()
        : null;
  }

  private static <R extends io.fabric8.kubernetes.api.model.HasMetadata> void register(
      Operator operator, Reconciler<R> reconciler, OperatorSettings settings) {
    register(operator, reconciler, settings, o -> {});
  }

  /**
   * With {@code more} overrides: what the reconciler's annotation cannot say (e.g. its filters).
   */
  private static <R extends io.fabric8.kubernetes.api.model.HasMetadata> void register(
      Operator operator,
      Reconciler<R> reconciler,
      OperatorSettings settings,
      Consumer<ControllerConfigurationOverrider<R>> more) {
    Consumer<ControllerConfigurationOverrider<R>> namespaces =
        settings.watchNamespaces().isEmpty()
            ? ControllerConfigurationOverrider::watchingAllNamespaces
            : o -> o.settingNamespaces(settings.watchNamespaces());
    operator.register(
        reconciler,
        namespaces
            .andThen(o -> o.withInformerListLimit(InformerLists.PAGE))
            .andThen(o -> o.withRetry(ReconcileRetry.backoff(settings.retryFirstWait())))
            .andThen(more));
  }

  /**
   * Serves /healthz, /readyz and /metrics on {@code address} (once; a cluster's operator does so on
   * its health port at start, the local mode on loopback only) and returns the port.
   */
  public synchronized int serveHttpEndpoints(InetSocketAddress address) {
    if (endpoints == null) {
      try {
        endpoints = OperatorHttpEndpoints.start(address, operator::getRuntimeInfo, metrics, deltas);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serve health endpoints on " + address, e);
      }
    }
    if (address.getAddress() != null && address.getAddress().isLoopbackAddress()) {
      // On loopback (the local mode) the channel's address is known only now.
      deltas.served("http://" + address.getAddress().getHostAddress() + ":" + endpoints.port());
    }
    return endpoints.port();
  }

  /** The port of /healthz, /readyz and /metrics; -1 when they are not served. */
  public int healthPort() {
    return endpoints == null ? -1 : endpoints.port();
  }

  public boolean isReady() {
    return operator.getRuntimeInfo().isStarted()
        && operator.getRuntimeInfo().allEventSourcesAreHealthy();
  }

  @Override
  public void close() {
    stopping.set(true);
    if (endpoints != null) {
      endpoints.close();
    }
    operator.stop();
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("Could not close {}", resource, e);
      }
    }
  }

  /**
   * In a cluster: the client from the Pod's service account, settings from THREADLINE_* variables.
   */
  public static void main(String[] args) throws InterruptedException {
    OperatorSettings settings;
    try {
      settings = OperatorSettings.fromEnvironment(System.getenv());
    } catch (IllegalArgumentException e) {
      // A setting out of bounds: said in one line that names the variable, no stack trace.
      System.err.println("threadline-operator: cannot start: " + e.getMessage());
      System.exit(2);
      return;
    }
    KubernetesClient client = ThreadlineClients.builder("threadline-operator").build();
    Telemetry telemetry = Telemetry.fromEnvironment(SERVICE_NAME, System.getenv());
    History history = History.open(HistorySettings.fromEnvironment(System.getenv(), null));
    ThreadlineOperator operator = start(client, settings, Clock.systemUTC(), telemetry, history);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  operator.close();
                  history.close();
                  telemetry.close();
                  client.close();
                  stopped.countDown();
                },
                "threadline-operator-shutdown"));
    stopped.await();
  }
}
