package dev.threadline.models;

/**
 * Keeps secrets out of error messages. Providers echo parts of a request in their errors (some
 * quote the API key they rejected), and those messages end up in logs, statuses and events.
 */
public final class Redaction {

  public static final String MASK = "****";

  /** Provider error bodies can be long HTML pages from a proxy: a status message needs the gist. */
  private static final int MAX_MESSAGE_LENGTH = 300;

  private Redaction() {}

  /**
   * {@code url} without the {@code user:password@} part some gateways put in it, fit for a log
   * line.
   */
  public static String url(String url) {
    return url == null ? null : url.replaceFirst("//[^/@]*@", "//" + MASK + "@");
  }

  /** {@code message} with every occurrence of {@code secret} masked, cut to a readable length. */
  public static String redact(String message, String secret) {
    if (message == null) {
      return "";
    }
    String safe = secret == null || secret.isEmpty() ? message : message.replace(secret, MASK);
    safe = safe.strip();
    return safe.length() <= MAX_MESSAGE_LENGTH
        ? safe
        : safe.substring(0, MAX_MESSAGE_LENGTH - 1) + "…";
  }
}
