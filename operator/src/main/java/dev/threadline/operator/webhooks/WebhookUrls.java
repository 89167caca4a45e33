package dev.threadline.operator.webhooks;

import java.net.URI;

/** How webhook URLs appear in logs. */
public final class WebhookUrls {
  private WebhookUrls() {}

  /**
   * Scheme, host and port only: receivers often put a token in the path or query of their URL (chat
   * and CI hooks do), and logs must not carry it. The record names the whole URL.
   */
  public static String origin(String url) {
    try {
      URI uri = URI.create(url);
      return uri.getScheme()
          + "://"
          + uri.getHost()
          + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    } catch (IllegalArgumentException | NullPointerException e) {
      return "an invalid URL";
    }
  }
}
