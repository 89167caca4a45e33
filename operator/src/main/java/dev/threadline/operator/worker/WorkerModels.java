package dev.threadline.operator.worker;

import dev.threadline.models.ModelProvider;

/** The worker's model clients: made with the platform's credentials, which never leave it. */
public interface WorkerModels {
  /**
   * A client for the task's provider and model.
   *
   * @throws IllegalArgumentException when the provider is unknown or has no key
   */
  ModelProvider open(RunTask task);

  /** Removes the platform's secrets from a message before it is recorded anywhere. */
  String redact(String message);
}
