package dev.threadline.operator.worker;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.routing.Route;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.computer.AgentOutcome;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.SandboxGiveBack;
import dev.threadline.operator.computer.SandboxHandOff;
import dev.threadline.operator.computer.UncountedSpend;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.SelectableFields;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.metrics.StartSteps;
import dev.threadline.operator.tracing.AgentTracing;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trusted side of the computer path: runs the agent loops of the computer Runs whose sandbox is
 * up, one virtual thread each, never on a reconcile thread. Several replicas share the Runs by
 * claims (see {@link RunClaims}); a replica learns of Runs from a watch, renews its claims on a
 * timer and takes over the Runs whose claim expired (their replica stopped), which go on from their
 * last recorded step.
 */
public final class AgentWorker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentWorker.class);

  public static final String USER_AGENT = "threadline-worker";

  /** The Run field the worker's watch selects computer runs by (a selectable field of the CRD). */
  static final String RUN_ROUTE = "status.route";

  static final Duration CLAIM_PAUSE_PER_RUN = Duration.ofMillis(20);
  static final int MAX_CLAIM_PAUSE_RUNS = 50;

  private final KubernetesClient client;
  private final WorkerSettings settings;
  private final RunClaims claims;
  private final RunWork.Parts parts;
  private final Map<String, RunWork> working = new ConcurrentHashMap<>();

  /**
   * Runs whose hand-off this process's operator announced (before its write, whose watch event may
   * come first) and whose hand-off has not yet taken its claim: their watch events are left to the
   * hand-off, so that the run is claimed and started once, with the start the hand-off began
   * ({@link RunStart}).
   */
  private final Set<String> awaitingHandOff = ConcurrentHashMap.newKeySet();

  /**
   * Runs a thread of this process is claiming now (the watch, the hand-off, the renewal's look for
   * expired claims, a Pod turning ready): one at a time, so a run is claimed and started once.
   */
  private final Set<String> claiming = ConcurrentHashMap.newKeySet();

  private final ExecutorService loops = Executors.newVirtualThreadPerTaskExecutor();
  private SharedIndexInformer<Run> runs;
  private Thread renewer;
  private volatile boolean closed;

  /**
   * Each run's loop traced by {@code tracing} ({@link AgentTracing#off()} for none), the steps of
   * its start timed by {@code steps} ({@link StartSteps#NONE} for none); its events, memory and
   * outcome recorded through {@code statuses} (in the history store, then the Run).
   */
  public AgentWorker(
      KubernetesClient client,
      WorkerSettings settings,
      RunTasks tasks,
      WorkerModels models,
      SandboxLocator sandboxes,
      SandboxClient sandboxClient,
      ModelPricing pricing,
      Allowance allowance,
      DeltaHub deltas,
      Clock clock,
      AgentTracing tracing,
      StartSteps steps,
      ComputerStatus statuses,
      OperatorMetrics metrics) {
    this.client = client;
    this.settings = settings;
    this.claims = new RunClaims(client, settings.holder(), settings.claimTtl(), clock);
    this.parts =
        new RunWork.Parts(
            client,
            tasks,
            models,
            sandboxes,
            sandboxClient,
            pricing,
            clock,
            new RunMemoryStore(statuses.recorder().log().history().memory()),
            statuses,
            allowance,
            namespace -> runs.getIndexer().byIndex(UncountedSpend.INDEX, namespace).stream(),
            settings.allowPrivateMcpTargets(),
            tracing,
            deltas,
            steps,
            settings.inputTimeout(),
            settings.inputRelease(),
            metrics);
  }

  /**
   * A client of its own for the worker, on the operator's connection settings: its requests carry
   * {@value #USER_AGENT} as their User-Agent, so an API server's audit log (and the tests that
   * check who writes which part of a Run's status) tell the worker's writes from the operator's.
   */
  public static KubernetesClient ownClient(KubernetesClient operatorClient) {
    Config config =
        new ConfigBuilder(operatorClient.getConfiguration()).withUserAgent(USER_AGENT).build();
    return ThreadlineClients.builder(USER_AGENT).withConfig(config).build();
  }

  /** Starts watching Runs and renewing claims. */
  public AgentWorker start() {
    var resources = client.resources(Run.class);
    FilterWatchListDeletable<Run, KubernetesResourceList<Run>, Resource<Run>> scope =
        settings.namespace() == null
            ? resources.inAnyNamespace()
            : resources.inNamespace(settings.namespace());
    // Direct runs are none of the worker's business: where the server selects by the route, their
    // writes never reach this replica (eligible() still checks the route).
    runs = // this replica's watch of computer Runs: new ones, ended ones, cancel requests
        SelectableFields.selectIfServed(client, scope, RUN_ROUTE, Route.COMPUTER.value())
            .runnableInformer(0);
    runs.addIndexers(Map.of(UncountedSpend.INDEX, UncountedSpend::indexKeys));
    runs.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Run run) {
            considerSafely(run);
          }

          @Override
          public void onUpdate(Run before, Run run) {
            RunWork work = working.get(run.getMetadata().getUid());
            if (work != null) {
              work.changed(run);
            }
            considerSafely(run);
          }

          @Override
          public void onDelete(Run run, boolean unknownFinalState) {
            stop(run, "deleted");
          }
        });
    runs.run();
    if (parts.sandboxes() instanceof PodSandboxLocator watched) {
      watched.onReady((namespace, name) -> {
        Run run = runs.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
        if (run != null) {
          considerSafely(run);
        }
      });
    }
    renewer = Thread.ofVirtual().name("worker-claims").start(this::renewLoop);
    return this;
  }

  /**
   * A run whose claimed, ready sandbox the operator of this process is about to record ({@link
   * SandboxHandOff}): from now on its watch events wait for the hand-off; once recorded, it is
   * considered at once, without waiting for the watches of Runs and Pods to bring both. Its claim
   * is taken as any other (exclusive).
   */
  public SandboxHandOff.Pending expectHandOff(Run run) {
    String uid = run.getMetadata().getUid();
    awaitingHandOff.add(uid);
    return new SandboxHandOff.Pending() {
      private boolean handedOver;

      @Override
      public void handOver(Run written, Pod pod, Optional<String> credential) {
        handedOver = true;
        handOff(written, pod, credential);
      }

      @Override
      public void close() {
        if (!handedOver) {
          awaitingHandOff.remove(uid); // not recorded: its watch events are considered again
        }
      }
    };
  }

  private void handOff(Run run, Pod pod, Optional<String> credential) {
    String uid = run.getMetadata().getUid();
    if (closed) {
      awaitingHandOff.remove(uid);
      return;
    }
    if (parts.sandboxes() instanceof PodSandboxLocator located) {
      located.handedOver(run, pod, credential);
    }
    long began = System.nanoTime();
    loops.execute(() -> {
      parts.steps().since(StartStep.HAND_OFF, began);
      try {
        considerSafely(run, true);
      } finally {
        awaitingHandOff.remove(uid);
      }
    });
  }

  /** The Runs this replica works on now. */
  public int working() {
    return working.size();
  }

  /** Whether this replica runs as many loops as it may ({@link WorkerSettings#maxLoops()}). */
  private boolean full() {
    return working.size() >= settings.maxLoops();
  }

  /** Whether this replica works on the Run now. */
  public boolean isWorkingOn(Run run) {
    return working.containsKey(run.getMetadata().getUid());
  }

  private void considerSafely(Run run) {
    considerSafely(run, false);
  }

  /**
   * @param handedOver the run was handed over by this process's operator: its start begins side by
   *     side with the claim ({@link RunStart})
   */
  private void considerSafely(Run run, boolean handedOver) {
    try {
      consider(run, handedOver);
    } catch (RuntimeException e) {
      notClaimed(run, e);
    }
  }

  private static void notClaimed(Run run, RuntimeException e) {
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.warn("not claimed: {}", e.getMessage());
    }
  }

  private void consider(Run run, boolean handedOver) {
    if (closed) {
      return;
    }
    String uid = run.getMetadata().getUid();
    Optional<AgentOutcome> imposed =
        isWorking(run) ? AgentOutcome.imposed(run) : Optional.<AgentOutcome>empty();
    if (imposed.isPresent()) {
      RunWork work = working.get(uid);
      if (work != null && run.getSpec().getSupersededBy() != null) {
        // Its loop keeps or reverts the workspace's changes through the sandbox, then ends the run.
        work.supersede(run.getSpec().rolledBack());
        return;
      }
      stop(run, "ended from outside (" + imposed.get().error().code() + ")");
      if (!claims.heldByAnother(run)) {
        // Whether or not a loop works on it here: the claim's holder ends it, or, when no replica
        // holds it (its sandbox never served, or its replica stopped), whoever sees it first.
        RunWork.end(parts, run, imposed.get());
      }
      return;
    }
    if (!eligible(run)) {
      stop(run, "ended");
      return;
    }
    if (working.containsKey(uid)
        || claims.heldByAnother(run)
        || (!handedOver && awaitingHandOff.contains(uid))) {
      return; // worked on, by another replica, or the hand-off of this process claims it
    }
    if (SandboxGiveBack.of(run.getStatus()).withoutSandbox()) {
      return; // it waits with its sandbox given back: taken again when answered
    }
    if (parts.sandboxes().locate(run).isEmpty()) {
      return; // its sandbox is not up yet: the Run changes when it is
    }
    if (full()) {
      return; // another replica claims it, or this one at a renewal once a loop has ended
    }
    if (!claiming.add(uid)) {
      return; // another thread of this process is claiming it
    }
    boolean claimLater = false;
    try {
      int load = working.size();
      if (load == 0) {
        claimNow(run, handedOver);
      } else {
        claimAfterPause(run, load);
        claimLater = true;
      }
    } finally {
      if (!claimLater) {
        claiming.remove(uid);
      }
    }
  }

  private void claimNow(Run run, boolean handedOver) {
    RunStart headStart = handedOver ? RunStart.begin(parts, run) : null;
    Optional<Run> claimed =
        parts.steps().time(StartStep.RUN_CLAIM, () -> takeClaim(run, handedOver));
    if (claimed.isPresent()) {
      begin(claimed.get(), headStart);
    } else if (headStart != null) {
      headStart.cancel();
    }
  }

  /**
   * A busy replica lets a less busy one claim first: replicas take new runs in proportion to their
   * free room, without talking to each other. The run stays in {@link #claiming} meanwhile.
   */
  private void claimAfterPause(Run run, int load) {
    String uid = run.getMetadata().getUid();
    Duration pause = CLAIM_PAUSE_PER_RUN.multipliedBy(Math.min(load, MAX_CLAIM_PAUSE_RUNS));
    loops.execute(() -> {
      try {
        Thread.sleep(pause);
        Run latest = runs.getStore().get(run);
        if (latest != null
            && !closed
            && !full()
            && eligible(latest)
            && !working.containsKey(uid)
            && !claims.heldByAnother(latest)) {
          claims.take(latest).ifPresent(claimed -> begin(claimed, null));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        notClaimed(run, e);
      } finally {
        claiming.remove(uid);
      }
    });
  }

  /**
   * The Run's claim; a handed-over Run that another writer changed since the operator wrote it (a
   * conflict, not another replica's claim) is read again and claimed once more, rather than left to
   * its watch event and a second start.
   */
  private Optional<Run> takeClaim(Run run, boolean handedOver) {
    Optional<Run> claimed = claims.take(run);
    if (claimed.isPresent() || !handedOver) {
      return claimed;
    }
    Run latest =
        client
            .resources(Run.class)
            .inNamespace(run.getMetadata().getNamespace())
            .withName(run.getMetadata().getName())
            .get();
    return latest != null && eligible(latest) && !claims.heldByAnother(latest)
        ? claims.take(latest)
        : Optional.empty();
  }

  private void begin(Run claimed, RunStart headStart) {
    RunWork work = new RunWork(parts, claimed, headStart);
    if (working.putIfAbsent(claimed.getMetadata().getUid(), work) != null) {
      if (headStart != null) {
        headStart.cancel();
      }
      return;
    }
    try (ResourceLogContext logged = ResourceLogContext.of(claimed)) {
      LOG.info("claimed by worker {}", settings.holder());
    }
    loops.execute(() -> {
      try {
        work.run();
      } finally {
        working.remove(claimed.getMetadata().getUid());
        if (!closed) {
          claims.release(claimed.getMetadata().getNamespace(), claimed.getMetadata().getName());
        }
      }
    });
  }

  private void stop(Run run, String why) {
    RunWork work = working.get(run.getMetadata().getUid());
    if (work != null) {
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.info("{}: its loop stops", why);
      }
      work.stop();
    }
  }

  /** Running, routed to the computer, not asked to stop, its sandbox not reported failed. */
  private static boolean eligible(Run run) {
    return isWorking(run) && AgentOutcome.imposed(run).isEmpty();
  }

  /** Routed to the computer, not ended, not deleted (a deleted run is ended by DeletedRuns). */
  private static boolean isWorking(Run run) {
    return run.getStatus() != null
        && Route.COMPUTER.value().equals(run.getStatus().getRoute())
        && !RunStatusUpdates.ended(run.getStatus())
        && run.getMetadata().getDeletionTimestamp() == null;
  }

  /** Renews this replica's claims and looks for Runs whose claim expired. */
  private void renewLoop() {
    while (!closed) {
      try {
        Thread.sleep(settings.renewEvery());
      } catch (InterruptedException e) {
        return;
      }
      for (RunWork work : working.values()) {
        try (ResourceLogContext logged = work.logContext()) {
          if (!claims.renew(work.namespace(), work.name())) {
            LOG.warn("claim lost: its loop stops");
            work.stop();
          }
        } catch (RuntimeException e) {
          try (ResourceLogContext logged = work.logContext()) {
            LOG.warn("claim not renewed: {}", e.getMessage());
          }
        }
      }
      runs.getStore().list().forEach(this::considerSafely);
    }
  }

  /** Stops this replica: its loops end where they are, its claims expire and move elsewhere. */
  @Override
  public void close() {
    closed = true;
    if (runs != null) {
      runs.close();
    }
    if (renewer != null) {
      renewer.interrupt();
    }
    working.values().forEach(RunWork::abandon);
    loops.shutdownNow();
  }
}
