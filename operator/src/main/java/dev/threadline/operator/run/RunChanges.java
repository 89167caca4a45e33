package dev.threadline.operator.run;

import dev.threadline.core.routing.Route;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Objects;

/**
 * Which changes of a Run wake its reconciler: a new generation (the spec changed: a cancel), a new
 * phase (the worker ended a computer run: its sandbox dependents go), the worker giving a waiting
 * run's sandbox up or that wait ending ({@code status.waitingFor.sandboxGivenBack}), or a deletion.
 * Not the status writes in between — a working run's worker records every event there — nor the
 * write that ends a run off the computer route with its Ready condition (this reconciler's own one
 * write of a direct run: reconciling it again would find nothing to do, unless a {@code rollback}
 * undid it: then it is to be removed).
 */
public class RunChanges implements OnUpdateFilter<Run> {
  @Override
  public boolean accept(Run updated, Run previous) {
    if (updated.isMarkedForDeletion() && !previous.isMarkedForDeletion()) {
      return true;
    }
    if (!Objects.equals(
        updated.getMetadata().getGeneration(), previous.getMetadata().getGeneration())) {
      return true;
    }
    if (!Objects.equals(givenBack(updated), givenBack(previous))) {
      return true; // the worker gave the sandbox up, or the wait that did is over
    }
    return !Objects.equals(phase(updated), phase(previous)) && !endedWithNothingLeft(updated);
  }

  private static String givenBack(Run run) {
    return run.getStatus() == null || run.getStatus().getWaitingFor() == null
        ? null
        : run.getStatus().getWaitingFor().getSandboxGivenBack();
  }

  /** Ended, not on the computer route (no sandbox to remove), its Ready condition already set. */
  private static boolean endedWithNothingLeft(Run run) {
    return RunPhase.of(run).isTerminal()
        && !RunPhase.undone(run)
        && !Route.COMPUTER.value().equals(run.getStatus().getRoute())
        && RunReadiness.holds(run.getStatus());
  }

  private static String phase(Run run) {
    return run.getStatus() == null ? null : run.getStatus().getPhase();
  }
}
