package dev.threadline.operator.worker;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProviders;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.config.HistoryLimits;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.worker.mcp.McpConnections;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The worker's per-step path of one long computer run, with the history store as the worker writes
 * it: the real {@link AgentLoop} with the scripted model (one tool call per backticked command),
 * the real {@link SandboxClient} against an in-process sandbox stand-in, and at every step the
 * events it produced appended through {@link EventRecorder} and the memory step through {@link
 * RunMemoryStore}, as {@code RunWork} does. Left out: the Run's status write to the Kubernetes API
 * (bounded and the same at every step) and a real sandbox process.
 */
public final class WorkerStepCosts {
  private WorkerStepCosts() {}

  /**
   * One run's steps: the wall time of each whole step (from the previous step's write to this
   * one's, model call and tool call included) and the time of its store writes (events + memory).
   */
  public record Steps(List<Double> stepMillis, List<Double> storeMillis, int toolCalls) {}

  /** Runs a task of {@code commands} commands in {@code history}, as run {@code name}. */
  public static Steps run(History history, String name, int commands) throws Exception {
    String task =
        "Run "
            + IntStream.rangeClosed(1, commands)
                .mapToObj(i -> "`echo step " + i + "`")
                .collect(Collectors.joining(", "));
    RunTask.Limits defaults = RunTask.Limits.DEFAULT;
    RunTask.Limits limits =
        new RunTask.Limits(
            commands + 1,
            defaults.commandTimeoutSeconds(),
            defaults.outputLimitBytes(),
            defaults.maxOutputTokens());
    RunTask runTask =
        new RunTask(
            ModelSettings.SCRIPTED,
            ModelSettings.SCRIPTED,
            "You are a benchmark.",
            List.of(ChatMessage.user(task)),
            null,
            List.of(),
            limits);
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withNamespace("bench").withName(name).build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-" + name);
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    EventRecorder events =
        new EventRecorder(new RunEventLog(history), HistoryLimits.defaults().toolOutput());
    RunMemoryStore memories = new RunMemoryStore(history.memory());
    List<RunnerEvent> pending = new ArrayList<>();
    List<Double> steps = new ArrayList<>();
    List<Double> store = new ArrayList<>();
    RunMemoryStore.Stored[] last = {null};
    long[] previous = {System.nanoTime()};
    try (StandInSandbox sandbox = new StandInSandbox();
        var model = ModelProviders.create(ModelSettings.scripted())) {
      SandboxClient client = new SandboxClient();
      WorkerEvents workerEvents = new WorkerEvents(pending::add, Clock.systemUTC(), 0);
      AgentLoop.Recorder recorder =
          memory -> {
            long start = System.nanoTime();
            events.record(run, status, List.copyOf(pending));
            pending.clear();
            last[0] = memories.write(run, last[0], memory);
            long end = System.nanoTime();
            store.add((end - start) / 1e6);
            steps.add((end - previous[0]) / 1e6);
            previous[0] = end;
          };
      RunMemory opening = RunMemory.opening(runTask.opening(), null, 0, Usage.ZERO);
      recorder.record(opening);
      steps.clear(); // the opening step is not a step of the loop
      store.clear();
      previous[0] = System.nanoTime();
      Optional<AgentLoop.Ended> ended =
          new AgentLoop(
                  runTask,
                  model,
                  new SandboxCalls(client, sandbox.address(name), limits),
                  McpConnections.none(),
                  workerEvents,
                  recorder,
                  () -> false,
                  text -> text,
                  usage -> false,
                  AgentTracing.off(),
                  Deltas.NONE,
                  CallApprovals.NONE)
              .run(opening, () -> 0);
      if (ended.isEmpty() || !ended.get().outcome().succeeded()) {
        throw new IllegalStateException("the run did not succeed: " + ended);
      }
      return new Steps(steps, store, (int) sandbox.calls.get());
    }
  }
}
