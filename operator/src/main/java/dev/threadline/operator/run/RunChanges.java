package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Objects;

/**
 * Which changes of a Run wake its reconciler: a new generation (the spec changed: a cancel), a new
 * phase (the worker ended a computer run: its sandbox dependents go), or a deletion. Not the status
 * writes in between — a working run's worker records every event there.
 */
public class RunChanges implements OnUpdateFilter<Run> {
  @Override
  public boolean accept(Run updated, Run previous) {
    return !Objects.equals(
            updated.getMetadata().getGeneration(), previous.getMetadata().getGeneration())
        || !Objects.equals(phase(updated), phase(previous))
        || (updated.isMarkedForDeletion() && !previous.isMarkedForDeletion());
  }

  private static String phase(Run run) {
    return run.getStatus() == null ? null : run.getStatus().getPhase();
  }
}
