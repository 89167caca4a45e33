package dev.threadline.models;

import dev.threadline.models.anthropic.AnthropicModelProvider;
import dev.threadline.models.openai.OpenAiModelProvider;
import dev.threadline.models.scripted.ScriptedModelProvider;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the {@link ModelProvider} the settings name. */
public final class ModelProviders {

  private static final Logger log = LoggerFactory.getLogger(ModelProviders.class);

  private ModelProviders() {}

  /**
   * The provider for {@code settings}: the offline scripted model when the provider is blank.
   *
   * @throws IllegalArgumentException for an unknown provider, or {@code openai}/{@code anthropic}
   *     without an API key
   */
  public static ModelProvider create(ModelSettings settings) {
    return create(settings, Clock.systemUTC());
  }

  /** Like {@link #create(ModelSettings)}; the scripted model tells the time from {@code clock}. */
  public static ModelProvider create(ModelSettings settings, Clock clock) {
    log.info("Model provider {}, model {}", settings.provider(), settings.model());
    return switch (settings.provider()) {
      case ModelSettings.SCRIPTED -> new ScriptedModelProvider(clock);
      case ModelSettings.OPENAI -> new OpenAiModelProvider(requireKey(settings));
      case ModelSettings.ANTHROPIC -> new AnthropicModelProvider(requireKey(settings));
      default ->
          throw new IllegalArgumentException(
              "unknown model provider '"
                  + settings.provider()
                  + "' in "
                  + ModelSettings.ENV_PROVIDER
                  + ": use "
                  + ModelSettings.SCRIPTED
                  + ", "
                  + ModelSettings.OPENAI
                  + " or "
                  + ModelSettings.ANTHROPIC);
    };
  }

  private static ModelSettings requireKey(ModelSettings settings) {
    if (!settings.hasApiKey()) {
      throw new IllegalArgumentException(
          "model provider "
              + settings.provider()
              + " needs an API key: set "
              + ModelSettings.ENV_API_KEY
              + " (ModelSettings.apiKey), or leave "
              + ModelSettings.ENV_PROVIDER
              + " empty to use the offline scripted model");
    }
    return settings;
  }
}
