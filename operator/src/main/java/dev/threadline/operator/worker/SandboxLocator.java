package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import java.util.Optional;

/** Finds a run's sandbox: its address and credential, once its Pod is up. */
@FunctionalInterface
public interface SandboxLocator {
  /** Empty while the sandbox is not ready to take calls. */
  Optional<SandboxAddress> locate(Run run);

  /**
   * Makes the located sandbox the run's before its first call: a sandbox claimed from a warm pool
   * is bound to the run here (its credential and variables); a sandbox started for the run needs
   * nothing. Safe to repeat (a worker that takes a run over does it again).
   */
  default void bind(Run run, SandboxAddress sandbox) {}

  /**
   * The thread's kept workspace (a zip), if any, which a new run (not one taken over) puts into its
   * sandbox before its first step; read side by side with reaching the sandbox.
   */
  default Optional<byte[]> keptWorkspace(Run run) {
    return Optional.empty();
  }

  /** The run's loop ended, before its outcome is written: the workspace is kept, if it must be. */
  default void keepWorkspace(Run run, SandboxAddress sandbox) {}

  /**
   * The run waits long for a person and its sandbox is to be given back: keeps its workspace where
   * a sandbox taken again finds it. Whether its files are then safe without this sandbox (kept in
   * the store, or on the thread's workspace claim, which a cold sandbox mounts); false keeps the
   * sandbox through the wait.
   */
  default boolean keepForGiveBack(Run run, SandboxAddress sandbox) {
    return false;
  }

  /**
   * The run has ended: what the worker kept for its sandbox goes (the sandbox goes with the Run).
   */
  default void release(Run run) {}
}
