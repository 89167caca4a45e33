package dev.threadline.operator.model;

import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelProviders;
import dev.threadline.models.ModelSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model providers the operator can call: the offline scripted one always, and the provider
 * configured with a key (THREADLINE_MODEL_*). Clients are made once and shared.
 */
public final class ModelCatalog implements AutoCloseable {
  private final ModelSettings configured;
  private final Map<String, ModelProvider> providers = new ConcurrentHashMap<>();

  public ModelCatalog(ModelSettings configured) {
    this.configured = configured;
  }

  /** The provider an agent asks for; fails with a clear message when it is not configured. */
  public ModelProvider provider(String name) {
    return providers.computeIfAbsent(name, this::create);
  }

  public ModelSettings configured() {
    return configured;
  }

  private ModelProvider create(String name) {
    if (name.equals(configured.provider())) {
      return ModelProviders.create(configured);
    }
    if ("scripted".equals(name)) {
      return ModelProviders.create(ModelSettings.scripted());
    }
    throw new ModelException(
        name,
        ModelErrorCode.AUTH,
        "The agent asks for the "
            + name
            + " provider, but the operator is configured for "
            + configured.provider()
            + " (set THREADLINE_MODEL_PROVIDER and THREADLINE_MODEL_API_KEY)");
  }

  @Override
  public void close() throws Exception {
    for (ModelProvider provider : providers.values()) {
      provider.close();
    }
  }
}
