package dev.threadline.api;

import java.util.Optional;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** A running API server backed by its Spring application context. */
final class SpringRunningApiServer implements RunningApiServer {
  private final ConfigurableApplicationContext context;
  private final int port;
  private final String baseUrl;
  private final Optional<String> metricsUrl;

  SpringRunningApiServer(ConfigurableApplicationContext context, String address, int metricsPort) {
    this.context = context;
    this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
    this.baseUrl = "http://" + hostFor(address) + ":" + port;
    this.metricsUrl =
        metricsPort < 0
            ? Optional.empty()
            : Optional.of("http://" + hostFor(address) + ":" + metricsPort + "/metrics");
  }

  @Override
  public Optional<String> metricsUrl() {
    return metricsUrl;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public <T> T bean(String name, Class<T> type) {
    return context.getBean(name, type);
  }

  @Override
  public void close() {
    context.close();
  }

  /** A wildcard address is not something to connect to; loopback reaches it from this host. */
  private static String hostFor(String address) {
    if (address.equals("0.0.0.0")) {
      return "127.0.0.1";
    }
    if (address.equals("::") || address.equals("[::]")) {
      return "[::1]";
    }
    return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
  }
}
