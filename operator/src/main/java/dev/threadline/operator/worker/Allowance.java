package dev.threadline.operator.worker;

import dev.threadline.crds.run.Run;
import dev.threadline.models.Usage;
import java.util.stream.Stream;

/** Whether a run may go on spending: its user's monthly allowance, checked after every reply. */
@FunctionalInterface
public interface Allowance {
  Allowance UNLIMITED = (run, total, namespaceRuns) -> false;

  /**
   * @param total what the run's model replies used so far
   * @param namespaceRuns the Runs of the run's namespace (what the others spent so far)
   */
  boolean exhausted(Run run, Usage total, Stream<Run> namespaceRuns);
}
