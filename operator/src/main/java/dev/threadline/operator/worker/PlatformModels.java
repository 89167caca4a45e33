package dev.threadline.operator.worker;

import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelProviders;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.Redaction;

/**
 * The platform's model credentials, which stay in the worker: an agent of the configured provider
 * gets the configured key and endpoint; another provider gets neither.
 */
public final class PlatformModels implements WorkerModels {
  private final ModelSettings configured;

  public PlatformModels(ModelSettings configured) {
    this.configured = configured;
  }

  @Override
  public ModelProvider open(RunTask task) {
    boolean same = task.provider().equals(configured.provider());
    return ModelProviders.create(
        new ModelSettings(
            task.provider(),
            task.model(),
            same ? configured.baseUrl() : null,
            same ? configured.apiKey() : null,
            configured.timeout()));
  }

  @Override
  public String redact(String message) {
    return Redaction.redact(message, configured.apiKey());
  }
}
