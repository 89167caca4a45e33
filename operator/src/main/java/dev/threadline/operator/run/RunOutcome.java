package dev.threadline.operator.run;

import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.models.Usage;

/** How an execution ended: an answer with usage, or an error. */
public record RunOutcome(
    String response, Usage usage, RunErrorCode errorCode, String errorMessage) {
  public static RunOutcome answered(String response, Usage usage) {
    return new RunOutcome(response, usage, null, null);
  }

  public static RunOutcome failed(RunErrorCode code, String message, Usage usage) {
    return new RunOutcome(null, usage, code, message);
  }

  public boolean succeeded() {
    return errorCode == null;
  }
}
