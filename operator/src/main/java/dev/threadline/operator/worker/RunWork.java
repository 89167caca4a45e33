package dev.threadline.operator.worker;

import dev.threadline.core.approvals.ApprovalGate;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.computer.AgentOutcome;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.SandboxGiveBack;
import dev.threadline.operator.deltas.DeltaHub;
import dev.threadline.operator.deltas.DeltaSession;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.metrics.OperatorMetrics;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.metrics.StartSteps;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.worker.mcp.McpConnections;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claimed run on one worker: reads the run's memory (or starts it: {@code started}, {@code
 * planning}, the workspace's baseline), runs the loop from the last recorded step, and writes the
 * outcome. Stopped from outside when the Run ends or the claim is lost; abandoned (no write at all)
 * when the worker itself stops, so another replica goes on.
 */
final class RunWork {
  private static final Logger LOG = LoggerFactory.getLogger(RunWork.class);

  /** Where the sandbox's workspace is, as the model is told. */
  static final String WORKSPACE = "/workspace";

  /** What every run's work needs from its worker. */
  record Parts(
      KubernetesClient client,
      RunTasks tasks,
      WorkerModels models,
      SandboxLocator sandboxes,
      SandboxClient sandboxClient,
      ModelPricing pricing,
      Clock clock,
      RunMemoryStore memories,
      ComputerStatus statuses,
      Allowance allowance,
      java.util.function.Function<String, java.util.stream.Stream<Run>> runsIn,
      boolean allowPrivateMcpTargets,
      AgentTracing tracing,
      DeltaHub deltas,
      StartSteps steps,
      Duration inputTimeout,
      Duration inputRelease,
      OperatorMetrics metrics) {}

  private final Parts parts;
  private final Run run;
  private final RunStart headStart;
  private volatile boolean stopped;
  private volatile boolean abandoned;
  private volatile boolean superseded;
  private volatile boolean rollingBack;
  private volatile boolean finished;
  private volatile SandboxAddress address;
  private volatile String baseline;
  private final InputWaits waits;

  /**
   * @param headStart the run's start, begun before the run was claimed; null to begin it now
   */
  RunWork(Parts parts, Run run, RunStart headStart) {
    this.parts = parts;
    this.run = run;
    this.headStart = headStart;
    this.waits =
        new InputWaits(
            run,
            parts.client(),
            parts.statuses().recorder().log().history().answers(),
            parts.clock(),
            parts.inputTimeout(),
            parts.metrics(),
            new WaitGiveBack(parts, run, () -> this.address));
  }

  String namespace() {
    return run.getMetadata().getNamespace();
  }

  String name() {
    return run.getMetadata().getName();
  }

  /** The run's log context, for the threads that work on it. */
  ResourceLogContext logContext() {
    return ResourceLogContext.of(run);
  }

  /** The Run ended or the claim moved: the loop stops before its next step. */
  void stop() {
    stopped = true;
    waits.stop();
  }

  /** The Run changed (its watch): an answer to a call it waits on may have come. */
  void changed(Run latest) {
    waits.changed(latest);
  }

  /**
   * A newer message of the thread superseded the run ({@code spec.supersededBy}): the loop stops
   * (the call in flight is killed), then, before the run ends {@code cancelled} and its sandbox
   * goes, its workspace changes are recorded ({@code interrupt}: what it did is kept) or reverted
   * to the run's baseline ({@code rollback}).
   */
  void supersede(boolean rollback) {
    if (superseded) {
      return;
    }
    rollingBack = rollback; // the Run this work began with predates the newer message
    superseded = true;
    stop(); // a call waiting for a person ends too
    SandboxAddress sandbox = address;
    if (sandbox != null) {
      try {
        parts.sandboxClient().cancelAll(sandbox);
      } catch (RuntimeException e) {
        LOG.info("calls in flight not killed: {}", e.getMessage());
      }
    }
  }

  /** The worker stops: nothing more is written, the claim expires and another worker goes on. */
  void abandon() {
    abandoned = true;
    stopped = true;
    waits.stop();
  }

  void run() {
    try (ResourceLogContext logged = logContext()) {
      runLoop();
      if (superseded && !abandoned && !finished) {
        endSuperseded();
      }
    }
  }

  /** The workspace's changes kept or undone (as far as the sandbox serves), then the end. */
  private void endSuperseded() {
    SandboxAddress sandbox = address;
    String snapshot = baseline;
    if (sandbox != null && snapshot != null) {
      try {
        if (rollingBack) {
          var reverted = parts.sandboxClient().revert(sandbox, snapshot);
          LOG.info(
              "rolled back: {} files written back, {} removed, {} not restorable",
              reverted.path("restored").asInt(),
              reverted.path("removed").asInt(),
              reverted.path("unrestorableCount").asInt());
        } else {
          parts
              .statuses()
              .recordDiffs(
                  run, WorkerEvents.diffEntries(parts.sandboxClient().diff(sandbox, snapshot)));
        }
      } catch (RuntimeException e) {
        LOG.warn("superseded, but its workspace changes were not taken: {}", e.getMessage());
      }
    }
    end(parts, run, AgentOutcome.cancelled());
  }

  private void runLoop() {
    // A worker with no memory to go on from numbers the runner's events from 1 again: the store
    // records each number once, so the opening events of a worker that died early are not repeated.
    long recordedSeq = 0;
    Deltas deltas = announceDeltas();
    try (RunEventSink sink =
        new RunEventSink(
            parts.client(),
            run,
            recordedSeq,
            deltas,
            parts.statuses().recorder(),
            routingUsage(run))) {
      Optional<AgentLoop.Ended> ended =
          parts.tracing().invokeAgent(run, () -> work(sink, recordedSeq, deltas), RunWork::failure);
      if (ended.isPresent() && !abandoned) {
        sink.awaitWritten();
        keepWorkspace();
        closeDeltas(deltas); // every delta precedes the outcome
        finish(ended.get().outcome());
      }
    } catch (RunMemoryStore.Superseded e) {
      LOG.info("{}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      if (stopped) {
        // The run ended meanwhile (cancelled: its sandbox went) or this worker stops.
        LOG.info("loop stopped: {}", e.getMessage());
        return;
      }
      Optional<AgentOutcome> imposed = imposedNow();
      if (imposed.isPresent()) {
        // Cancelled (its sandbox went), or the computer path reported why its sandbox failed.
        closeDeltas(deltas);
        finish(imposed.get());
        return;
      }
      Optional<Duration> deadline = passedSandboxDeadline();
      if (deadline.isPresent()) {
        // The sandbox was stopped at its deadline: the call it was serving failed with it.
        closeDeltas(deltas);
        finish(
            AgentOutcome.failed(
                RunErrorCode.EXECUTION_TIMEOUT,
                "The run took longer than its limit of "
                    + deadline.get().toSeconds()
                    + " seconds"));
        return;
      }
      Optional<AgentOutcome> podEnded = sandboxEnded(e);
      if (podEnded.isPresent()) {
        // Evicted, say: the call broke when the kubelet stopped it, before it said why.
        closeDeltas(deltas);
        finish(imposedNow().orElse(podEnded.get()));
        return;
      }
      closeDeltas(deltas);
      LOG.warn("the agent's loop failed", e);
      finish(
          AgentOutcome.failed(
              RunErrorCode.EXECUTION_FAILED,
              parts.models().redact("the agent's loop failed: " + e.getMessage())));
    } finally {
      closeDeltas(deltas);
    }
  }

  /**
   * The ending the Run, as it is now, is given from outside the loop ({@link
   * AgentOutcome#imposed}).
   */
  private Optional<AgentOutcome> imposedNow() {
    try {
      Run current =
          parts.client().resources(Run.class).inNamespace(namespace()).withName(name()).get();
      return current == null ? Optional.empty() : AgentOutcome.imposed(current);
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
  }

  /**
   * When the loop failed on a sandbox call: the ending of the sandbox Pod, should it end (or go)
   * within {@link SandboxVerdict#WAIT}; empty for any other failure, or a Pod that still runs.
   */
  private Optional<AgentOutcome> sandboxEnded(RuntimeException failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SandboxException) {
        return SandboxVerdict.await(parts.client(), namespace(), sandboxPod(), SandboxVerdict.WAIT);
      }
    }
    return Optional.empty();
  }

  /** The run's sandbox Pod: the one its status names (a claimed one), else its own name. */
  private String sandboxPod() {
    return run.getStatus() != null && run.getStatus().getPod() != null
        ? run.getStatus().getPod()
        : AgentObjects.podName(run);
  }

  /**
   * The sandbox Pod's {@code activeDeadlineSeconds} when it has passed since the Pod started: the
   * kubelet ends such a Pod, and a loop that fails then failed because of it.
   */
  private Optional<Duration> passedSandboxDeadline() {
    return SandboxDeadline.of(parts.client(), run)
        .filter(deadline -> !parts.clock().instant().isBefore(deadline.ends()))
        .map(SandboxDeadline::limit);
  }

  /**
   * Opens this replica's live session for a run that asked for deltas and names it in {@code
   * status.deltaChannel}, before any model call; {@link Deltas#NONE} otherwise.
   */
  private Deltas announceDeltas() {
    Optional<DeltaSession> session = parts.deltas().open(run);
    if (session.isEmpty()) {
      return Deltas.NONE;
    }
    String url = parts.deltas().url(session.get());
    try {
      if (RunStatusUpdates.write(
          parts.client(),
          namespace(),
          name(),
          status -> {
            status.setDeltaChannel(url);
            return true;
          })) {
        return session.get();
      }
    } catch (KubernetesClientException e) {
      LOG.warn("streams no deltas: {}", e.getMessage());
    }
    session.get().close();
    return Deltas.NONE;
  }

  private static void closeDeltas(Deltas deltas) {
    if (deltas instanceof DeltaSession session) {
      session.close();
    }
  }

  private Optional<AgentLoop.Ended> work(RunEventSink sink, long recordedSeq, Deltas deltas)
      throws InterruptedException {
    // The task is awaited first, so a run that cannot be worked on fails without waiting for its
    // sandbox.
    long began = System.nanoTime();
    StartSteps steps = parts.steps();
    RunStart start = headStart != null ? headStart : RunStart.begin(parts, run);
    RunTask task;
    try {
      task = SideBySide.join(start.task);
    } catch (IllegalArgumentException e) {
      start.cancel();
      return Optional.of(
          new AgentLoop.Ended(
              null, AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, e.getMessage())));
    }
    SandboxAddress address = SideBySide.join(start.sandbox);
    this.address = address;
    SandboxCalls calls = new SandboxCalls(parts.sandboxClient(), address, task.limits());
    Optional<RunMemoryStore.Stored> stored = SideBySide.join(start.memory);
    WorkerEvents events =
        new WorkerEvents(
            sink::emit,
            parts.clock(),
            stored.map(s -> s.memory().lastEventSeq()).orElse(recordedSeq));
    if (deltas.live()) {
      String runId = ResourceIds.toId(name());
      events.namingItems(runId.substring(runId.indexOf('_') + 1));
    }
    RunMemoryStore.Stored[] last = {stored.orElse(null)};
    if (stored.isEmpty()) {
      long restoring = System.nanoTime();
      SideBySide.join(start.workspace)
          .ifPresent(zip -> parts.sandboxClient().restore(address, zip));
      steps.since(StartStep.RESTORE, restoring);
      steps.since(StartStep.FIRST_EVENT, began);
      // The opening events in one status write: response.started follows the first write.
      sink.together(() -> {
        events.started(run.getMetadata().getName(), task.model(), WORKSPACE);
        task.files().forEach(calls::put);
        if (!task.files().isEmpty()) {
          events.setup(
              "Placed "
                  + task.files().size()
                  + (task.files().size() == 1 ? " attachment" : " attachments")
                  + " in attachments/: "
                  + String.join(
                      ", ",
                      task.files().stream()
                          .map(f -> f.path().substring(f.path().indexOf('/') + 1))
                          .toList()));
        }
        events.planning(task.plan());
      });
      RunMemory opening =
          RunMemory.opening(task.opening(), calls.snapshot(), events.lastSeq(), routingUsage(run));
      sink.awaitWritten();
      last[0] = parts.memories().write(run, null, opening);
    }
    if (stored.isPresent() && SandboxGiveBack.of(run.getStatus()) == SandboxGiveBack.TAKEN_AGAIN) {
      // Taken again after a wait gave the sandbox back: the workspace as the wait found it, and a
      // baseline of it (the first sandbox's went with it). Before the answered call runs (it runs
      // after the wait ends), so doing it again is harmless.
      long restoring = System.nanoTime();
      SideBySide.join(start.workspace)
          .ifPresent(zip -> parts.sandboxClient().restore(address, zip));
      steps.since(StartStep.RESTORE, restoring);
      last[0] =
          parts.memories().write(run, last[0], last[0].memory().withSnapshot(calls.snapshot()));
    }
    baseline = last[0].memory().snapshot();
    AgentLoop.Recorder recorder =
        memory -> {
          try {
            sink.awaitWritten();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunMemoryStore.Superseded(name());
          }
          if (abandoned) {
            throw new RunMemoryStore.Superseded(name());
          }
          last[0] = parts.memories().write(run, last[0], memory);
        };
    ModelProvider model;
    try {
      model = parts.tracing().chats(parts.models().open(task));
    } catch (IllegalArgumentException e) {
      return Optional.of(
          new AgentLoop.Ended(
              last[0].memory(),
              AgentOutcome.failed(
                  RunErrorCode.EXECUTION_FAILED, parts.models().redact(e.getMessage()))));
    }
    try (model;
        McpConnections mcp =
            McpConnections.start(
                task.mcpServers(),
                parts.sandboxClient(),
                address,
                parts.allowPrivateMcpTargets(),
                task.limits().outputLimitBytes(),
                mcpEvents(events, stored.isEmpty()))) {
      return new AgentLoop(
              task,
              model,
              calls,
              mcp,
              events,
              recorder,
              () -> stopped,
              parts.models()::redact,
              usage -> parts.allowance().exhausted(run, usage, parts.runsIn().apply(namespace())),
              parts.tracing(),
              deltas,
              new CallApprovals(
                  ApprovalGate.of(task.approvals()), waits, events, parts.tracing(), name()))
          .run(last[0].memory(), this::elapsedMs);
    }
  }

  /**
   * Reports each MCP server's start as a {@code setup} event and a failed one as an {@code error}
   * event, the first time the run starts them (a worker that takes the run over connects again
   * silently).
   */
  private McpConnections.Listener mcpEvents(WorkerEvents events, boolean firstStart) {
    return new McpConnections.Listener() {
      @Override
      public void started(String server, List<String> toolNames) {
        if (firstStart) {
          events.setup(
              "Started MCP server "
                  + server
                  + " with "
                  + toolNames.size()
                  + (toolNames.size() == 1 ? " tool: " : " tools: ")
                  + String.join(", ", toolNames));
        }
      }

      @Override
      public void failed(String server, String reason) {
        if (firstStart) {
          events.error(
              "MCP server " + server + " is not available: " + parts.models().redact(reason));
        } else {
          try (ResourceLogContext logged = logContext()) {
            LOG.info("MCP server {} is not available: {}", server, parts.models().redact(reason));
          }
        }
      }
    };
  }

  /** Since the run started (not since this worker took it). */
  private long elapsedMs() {
    Instant now = parts.clock().instant();
    Instant started = Timestamps.parse(run.getStatus().getStartedAt()).orElse(now);
    return Math.max(0, Duration.between(started, now).toMillis());
  }

  /** Before the outcome: a follow-up may start as soon as it is written, and must see the files. */
  private void keepWorkspace() {
    SandboxAddress sandbox = address;
    if (sandbox == null || stopped) {
      return;
    }
    try {
      parts.sandboxes().keepWorkspace(run, sandbox);
    } catch (RuntimeException e) {
      LOG.warn("workspace not kept: {}", e.getMessage());
    }
  }

  private void finish(AgentOutcome outcome) {
    finished = true; // a rollback that comes later finds the run ended as it was
    end(parts, run, outcome);
  }

  /**
   * Writes the run's outcome — the worker's alone to write, whether its loop decided it or it was
   * given from outside ({@link AgentOutcome#imposed}) — unless the run has ended already.
   */
  static void end(Parts parts, Run run, AgentOutcome outcome) {
    String namespace = run.getMetadata().getNamespace();
    String name = run.getMetadata().getName();
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      boolean written =
          RunStatusUpdates.write(
              parts.client(),
              namespace,
              name,
              status ->
                  parts
                      .statuses()
                      .finish(
                          run,
                          status,
                          List.of(),
                          outcome,
                          parts.clock().instant(),
                          parts.pricing()));
      if (written) {
        parts.sandboxes().release(run);
        if (outcome.succeeded()) {
          LOG.info("completed");
        } else {
          LOG.info("ended ({})", outcome.error().code());
        }
      }
    } catch (KubernetesClientException e) {
      try (ResourceLogContext logged = ResourceLogContext.of(run)) {
        LOG.warn("outcome not written: {}", e.getMessage());
      }
    }
  }

  /** The error code of a loop that ended in failure, for its trace. */
  private static Optional<String> failure(Optional<AgentLoop.Ended> ended) {
    return ended
        .map(AgentLoop.Ended::outcome)
        .filter(outcome -> !outcome.succeeded())
        .map(outcome -> outcome.error().code());
  }

  /** What routing spent before the worker started (the model's hand-off call). */
  private Usage routingUsage(Run run) {
    return parts.statuses().routingUsage(run);
  }
}
