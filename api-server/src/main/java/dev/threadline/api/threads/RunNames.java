package dev.threadline.api.threads;

import dev.threadline.crds.common.ResourceIds;

/**
 * Names of a thread's runs and of the messages they hold. A run is named after its thread and
 * position ({@code thread-abc} → {@code run-abc-1}, REST id {@code run_abc-1}): the name is
 * deterministic, so two requests that race for the same position collide in the Kubernetes API.
 */
final class RunNames {
  private RunNames() {}

  /** {@code msg_abc-1_u}: the user message of run {@code run-abc-1}. */
  static String userMessageId(String runName) {
    return "msg_" + suffix(runName) + "_u";
  }

  /** {@code msg_abc-1_a}: the assistant's answer in run {@code run-abc-1}. */
  static String assistantMessageId(String runName) {
    return "msg_" + suffix(runName) + "_a";
  }

  static String runId(String runName) {
    return ResourceIds.toId(runName);
  }

  /** What follows the kind prefix: {@code thread-abc} → {@code abc}. */
  private static String suffix(String name) {
    return name.substring(name.indexOf('-') + 1);
  }
}
