package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;

/** Builds what a run's agent is asked from the Run, its Agent, Thread and Environment. */
@FunctionalInterface
public interface RunTasks {
  /**
   * @throws IllegalArgumentException when the run cannot be worked on (its Agent is gone, its model
   *     unknown); the message says why and becomes the run's error
   */
  RunTask task(Run run);
}
