package dev.threadline.models;

/**
 * Tokens one or more model calls consumed.
 *
 * <p>Follows the OpenAI convention whatever the provider: {@code inputTokens} counts the whole
 * prompt and {@code cachedTokens} is the part of it served from the provider's prompt cache (billed
 * at the cached price instead of the input price), so {@code cachedTokens <= inputTokens}.
 *
 * @param inputTokens every prompt token, cached ones included
 * @param outputTokens tokens the model wrote
 * @param cachedTokens the prompt tokens read from the provider's cache
 */
public record Usage(long inputTokens, long outputTokens, long cachedTokens) {

  public static final Usage ZERO = new Usage(0, 0, 0);

  public Usage {
    if (inputTokens < 0 || outputTokens < 0 || cachedTokens < 0) {
      throw new IllegalArgumentException("token counts must not be negative");
    }
    if (cachedTokens > inputTokens) {
      throw new IllegalArgumentException(
          "cachedTokens (" + cachedTokens + ") are part of inputTokens (" + inputTokens + ")");
    }
  }

  public Usage plus(Usage other) {
    return new Usage(
        inputTokens + other.inputTokens,
        outputTokens + other.outputTokens,
        cachedTokens + other.cachedTokens);
  }

  /** Prompt plus output tokens (cached tokens are already part of the prompt). */
  public long totalTokens() {
    return inputTokens + outputTokens;
  }

  /** Prompt tokens billed at the full input price. */
  public long uncachedInputTokens() {
    return inputTokens - cachedTokens;
  }
}
