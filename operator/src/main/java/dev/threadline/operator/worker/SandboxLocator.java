package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import java.util.Optional;

/** Finds a run's sandbox: its address and credential, once its Pod is up. */
@FunctionalInterface
public interface SandboxLocator {
  /** Empty while the sandbox is not ready to take calls. */
  Optional<SandboxAddress> locate(Run run);

  /** The run has ended: its sandbox goes. */
  default void release(Run run) {}
}
