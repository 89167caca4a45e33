package dev.threadline.models.scripted;

/**
 * A deterministic stand-in for a tokenizer: about four characters per token, the usual rule of
 * thumb for English text. Good enough to exercise token accounting and pricing offline.
 */
public final class TokenEstimator {

  private TokenEstimator() {}

  /** ceil(characters / 4); 0 for empty text. */
  public static long estimate(CharSequence text) {
    return text == null ? 0 : (text.length() + 3) / 4;
  }
}
