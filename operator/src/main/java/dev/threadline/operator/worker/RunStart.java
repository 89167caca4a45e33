package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import dev.threadline.operator.metrics.StartStep;
import dev.threadline.operator.metrics.StartSteps;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * The independent reads of a run's start, begun side by side on virtual threads instead of one
 * after another: its task (agent, thread, environment), its memory, its sandbox reached and bound,
 * and the thread's kept workspace. Each is a few API or sandbox round trips; the run's first step
 * waits for all of them. A run handed over by this process's operator begins them while the
 * worker's claim on the Run is being written (all are reads, and a bind is safe to repeat: a second
 * one is refused and the sandbox then proves the run's credential); a claim lost meanwhile cancels
 * them.
 */
final class RunStart {
  final Future<RunTask> task;
  final Future<Optional<RunMemoryStore.Stored>> memory;
  final Future<SandboxAddress> sandbox;
  final Future<Optional<byte[]>> workspace;

  private RunStart(RunWork.Parts parts, Run run) {
    StartSteps steps = parts.steps();
    task = SideBySide.start(() -> steps.time(StartStep.TASK, () -> task(parts, run)));
    memory = SideBySide.start(() -> steps.time(StartStep.MEMORY, () -> parts.memories().read(run)));
    sandbox = SideBySide.start(() -> steps.time(StartStep.BIND, () -> bindSandbox(parts, run)));
    workspace = SideBySide.start(() -> parts.sandboxes().keptWorkspace(run));
  }

  static RunStart begin(RunWork.Parts parts, Run run) {
    return new RunStart(parts, run);
  }

  /** Nothing of it is needed any more (the run cannot be worked on, or its claim was lost). */
  void cancel() {
    task.cancel(true);
    memory.cancel(true);
    sandbox.cancel(true);
    workspace.cancel(true);
  }

  private static RunTask task(RunWork.Parts parts, Run run) {
    return parts.tasks().task(run);
  }

  /** The run's sandbox, once it serves and is the run's (a claimed pool sandbox is bound). */
  private static SandboxAddress bindSandbox(RunWork.Parts parts, Run run) {
    SandboxAddress sandbox =
        parts
            .sandboxes()
            .locate(run)
            .orElseThrow(() -> new SandboxException("the run's sandbox is gone"));
    parts.sandboxClient().awaitHealthy(sandbox, SandboxCalls.STARTUP_PATIENCE);
    parts.sandboxes().bind(run, sandbox);
    return sandbox;
  }
}
