package dev.threadline.operator.usage;

import dev.threadline.crds.run.Run;
import java.time.Duration;
import java.util.Optional;

/** Ends a Run that was deleted before it ended, so that what it spent can be counted. */
@FunctionalInterface
public interface UnfinishedRuns {

  /**
   * @return how long to wait before asking again (its work is still stopping); empty once the Run
   *     has ended, or when it never started work that spends
   */
  Optional<Duration> endDeleted(Run run);
}
