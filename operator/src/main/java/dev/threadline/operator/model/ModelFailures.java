package dev.threadline.operator.model;

import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;

/** How a failed model call ends a run, the same on the direct path and in the worker. */
public final class ModelFailures {
  private ModelFailures() {}

  /** {@code rate_limited} when the provider throttled us (a 429), else {@code execution_failed}. */
  public static RunErrorCode runErrorCode(ModelException failure) {
    return failure.code() == ModelErrorCode.RATE_LIMITED
        ? RunErrorCode.RATE_LIMITED
        : RunErrorCode.EXECUTION_FAILED;
  }
}
