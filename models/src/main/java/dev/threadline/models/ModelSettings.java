package dev.threadline.models;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Which model to talk to and how. Read from configuration once; {@link #toString()} masks the key
 * so the settings can be logged.
 *
 * @param provider {@code scripted} (the default when blank), {@code openai} or {@code anthropic}
 * @param model the model name; blank means the provider's {@linkplain #defaultModel(String)
 *     default}
 * @param baseUrl the endpoint, or null for the provider's public one. For {@code openai} it
 *     includes the API version ({@code http://ollama:11434/v1}); for {@code anthropic} it does not
 * @param apiKey the secret; null or blank when none is configured. Never logged
 * @param timeout how long one call may take before it fails with {@link ModelErrorCode#TIMEOUT}
 */
public record ModelSettings(
    String provider, String model, String baseUrl, String apiKey, Duration timeout) {

  public static final String SCRIPTED = "scripted";
  public static final String OPENAI = "openai";
  public static final String ANTHROPIC = "anthropic";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

  public static final String ENV_PROVIDER = "THREADLINE_MODEL_PROVIDER";
  public static final String ENV_MODEL = "THREADLINE_MODEL_NAME";
  public static final String ENV_BASE_URL = "THREADLINE_MODEL_BASE_URL";
  public static final String ENV_API_KEY = "THREADLINE_MODEL_API_KEY";
  public static final String ENV_TIMEOUT_SECONDS = "THREADLINE_MODEL_TIMEOUT_SECONDS";

  public ModelSettings {
    provider = blank(provider) ? SCRIPTED : provider.strip().toLowerCase(Locale.ROOT);
    model = blank(model) ? defaultModel(provider) : model.strip();
    baseUrl = blank(baseUrl) ? null : baseUrl.strip();
    apiKey = blank(apiKey) ? null : apiKey.strip();
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("model timeout must be positive, was " + timeout);
    }
  }

  /** The offline scripted model: what runs when nothing is configured. */
  public static ModelSettings scripted() {
    return new ModelSettings(SCRIPTED, null, null, null, null);
  }

  /**
   * Reads {@value #ENV_PROVIDER}, {@value #ENV_MODEL}, {@value #ENV_BASE_URL}, {@value
   * #ENV_API_KEY} and {@value #ENV_TIMEOUT_SECONDS}; everything is optional.
   */
  public static ModelSettings fromEnvironment(Map<String, String> env) {
    String timeoutSeconds = env.get(ENV_TIMEOUT_SECONDS);
    Duration timeout = null;
    if (!blank(timeoutSeconds)) {
      try {
        timeout = Duration.ofSeconds(Long.parseLong(timeoutSeconds.strip()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            ENV_TIMEOUT_SECONDS
                + " must be a whole number of seconds, was '"
                + timeoutSeconds
                + "'");
      }
    }
    return new ModelSettings(
        env.get(ENV_PROVIDER),
        env.get(ENV_MODEL),
        env.get(ENV_BASE_URL),
        env.get(ENV_API_KEY),
        timeout);
  }

  /** The model used when none is named: small, cheap and able to call tools. */
  public static String defaultModel(String provider) {
    return switch (provider) {
      case OPENAI -> "gpt-4.1-mini";
      case ANTHROPIC -> "claude-sonnet-4-5";
      default -> SCRIPTED;
    };
  }

  /**
   * The API key, for providers that cannot work without one.
   *
   * @throws IllegalArgumentException naming the provider and the variable to set
   */
  public String requireApiKey() {
    if (!hasApiKey()) {
      throw new IllegalArgumentException(
          "the "
              + provider
              + " model provider needs an API key: set "
              + ENV_API_KEY
              + " (ModelSettings.apiKey)");
    }
    return apiKey;
  }

  public boolean hasApiKey() {
    return apiKey != null;
  }

  /** Shows whether a key is set, never the key itself. */
  @Override
  public String toString() {
    return "ModelSettings[provider="
        + provider
        + ", model="
        + model
        + ", baseUrl="
        + baseUrl
        + ", apiKey="
        + (apiKey == null ? "<none>" : "****")
        + ", timeout="
        + timeout
        + "]";
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
