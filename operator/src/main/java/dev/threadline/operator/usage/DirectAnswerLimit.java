package dev.threadline.operator.usage;

import dev.threadline.models.ModelSettings;
import java.time.Duration;

/**
 * The longest a direct answer can take from the start of its reconcile to its status write: the
 * routing call and, when that call did not answer itself, one answering call, each bounded by the
 * model timeout (the providers do not retry), and a margin for the write.
 */
public final class DirectAnswerLimit {
  private static final int MODEL_CALLS = 2;
  private static final Duration WRITE_MARGIN = Duration.ofSeconds(10);

  private DirectAnswerLimit() {}

  public static Duration of(ModelSettings model) {
    return model.timeout().multipliedBy(MODEL_CALLS).plus(WRITE_MARGIN);
  }
}
