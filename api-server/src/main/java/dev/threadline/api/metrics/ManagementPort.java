package dev.threadline.api.metrics;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Remembers the port of the management server (where {@code /metrics} is served), which Spring Boot
 * starts in a child context of its own: the real port when it was asked for any free one.
 */
public final class ManagementPort implements ApplicationListener<WebServerInitializedEvent> {
  private static final String NAMESPACE = "management";
  private volatile int port = -1;

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    if (NAMESPACE.equals(event.getApplicationContext().getServerNamespace())) {
      port = event.getWebServer().getPort();
    }
  }

  /** The port, or -1 when no management server runs. */
  public int port() {
    return port;
  }
}
