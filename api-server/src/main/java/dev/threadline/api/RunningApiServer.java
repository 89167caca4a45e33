package dev.threadline.api;

import java.util.Optional;

/** A started API server. Closing it stops the HTTP server and its caches, not the client. */
public interface RunningApiServer extends AutoCloseable {
  /** The port it listens on (the real one when started with port 0). */
  int port();

  /** E.g. {@code http://127.0.0.1:41234}, without a trailing slash. */
  String baseUrl();

  /** Where Prometheus scrapes this server (no API key), when the management port is served. */
  Optional<String> metricsUrl();

  /**
   * A bean of the server's application by name, for checks that read what Spring serves (e.g. the
   * request mappings the OpenAPI document must describe).
   */
  <T> T bean(String name, Class<T> type);

  @Override
  void close();

  /** This server, closing {@code resource} after itself. */
  default RunningApiServer closing(AutoCloseable resource) {
    RunningApiServer server = this;
    return new RunningApiServer() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public String baseUrl() {
        return server.baseUrl();
      }

      @Override
      public Optional<String> metricsUrl() {
        return server.metricsUrl();
      }

      @Override
      public <T> T bean(String name, Class<T> type) {
        return server.bean(name, type);
      }

      @Override
      public void close() {
        try {
          server.close();
        } finally {
          try {
            resource.close();
          } catch (Exception e) {
            throw new IllegalStateException("could not close " + resource, e);
          }
        }
      }
    };
  }
}
