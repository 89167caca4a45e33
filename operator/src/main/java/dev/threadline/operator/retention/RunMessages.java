package dev.threadline.operator.retention;

import dev.threadline.crds.run.Run;
import dev.threadline.history.History;

/** A run's whole message: in its spec, or in the history store when too long for it. */
final class RunMessages {
  private RunMessages() {}

  static String whole(History history, Run run) {
    String reference = run.getSpec().getMessageRef();
    if (reference == null) {
      return run.getSpec().getMessage();
    }
    return history
        .messageBodies()
        .read(run.getMetadata().getNamespace(), reference)
        .orElse(run.getSpec().getMessage());
  }
}
