package dev.threadline.local;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** {@code main} of the local mode: starts everything, says how to reach it, stops on Ctrl-C. */
public final class ThreadlineLocal {
  private ThreadlineLocal() {}

  public static void main(String[] args) throws InterruptedException {
    // The launcher owns logging; Spring Boot must not reconfigure it, and Tomcat's
    // java.util.logging goes through the same SLF4J configuration.
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    LocalSettings settings;
    try {
      settings = LocalSettings.fromEnvironment(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("threadline: " + e.getMessage());
      System.exit(2);
      return;
    }
    LocalMode local = LocalMode.start(settings);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("Threadline: stopping");
                  local.close();
                  stopped.countDown();
                  // Everything is stopped: say so to whoever started us (Maven reports 143 as a
                  // failure).
                  Runtime.getRuntime().halt(0);
                },
                "threadline-local-shutdown"));
    printWelcome(local, settings.apiKeys().isEmpty());
    stopped.await();
  }

  private static void printWelcome(LocalMode local, boolean generatedKey) {
    StringBuilder text =
        new StringBuilder()
            .append("\nThreadline is running (local mode).\n")
            .append("  REST API:        ")
            .append(local.apiUrl())
            .append('\n')
            .append("  Kubernetes API:  ")
            .append(local.kubernetesUrl())
            .append('\n')
            .append("  kubeconfig:      ")
            .append(local.kubeconfig())
            .append('\n')
            .append("  metrics (no key): ")
            .append(local.apiMetricsUrl())
            .append(" (API server), ")
            .append(local.operatorMetricsUrl())
            .append(" (operator)\n");
    for (Map.Entry<String, String> key : local.apiKeys().entrySet()) {
      String user = key.getValue();
      text.append("  user ")
          .append(user)
          .append(" (namespace ")
          .append(local.namespaces().get(user))
          .append(")");
      text.append(
              generatedKey ? ", API key: " + key.getKey() : ", API key from THREADLINE_API_KEYS")
          .append('\n');
    }
    text.append("Try:  curl -H \"Authorization: Bearer <key>\" ")
        .append(local.apiUrl())
        .append("/v1/agents\n")
        .append("Stop with Ctrl-C.\n");
    System.out.println(text);
  }
}
