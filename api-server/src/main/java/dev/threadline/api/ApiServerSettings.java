package dev.threadline.api;

import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.pricing.ModelPricing;
import java.time.Duration;
import java.util.Map;

/**
 * How the API server runs.
 *
 * @param address the address to listen on ({@code 0.0.0.0} in a cluster, {@code 127.0.0.1} locally)
 * @param port the port; 0 picks a free one
 * @param systemNamespace where API key Secrets live
 * @param cacheSyncTimeout how long {@link ThreadlineApiServer#start} waits for the caches to load
 *     and their watches to connect before it returns anyway (health says 503 until they do)
 * @param writeVisibilityTimeout how long a write waits for this replica's cache to reflect it
 * @param managementPort port of the unauthenticated Prometheus {@code /metrics}, apart from the API
 *     so that it is never published with it; 0 picks a free one, -1 serves none
 * @param modelPricing the operator's token prices ({@code THREADLINE_MODEL_PRICES}): an agent may
 *     only name a model the operator can bill
 * @param deltasToken the internal token this server presents to the operator's live channels
 *     ({@code THREADLINE_DELTAS_TOKEN}, the same value the operator has); empty: streams carry no
 *     text deltas
 * @param webhookTargets {@code THREADLINE_WEBHOOK_ALLOWED_TARGETS} (the operator's, {@link
 *     AllowedTargets#forWebhooks}): the addresses a webhook URL given as an IP literal may name;
 *     others are refused at registration with a 400 naming the field
 */
public record ApiServerSettings(
    String address,
    int port,
    String systemNamespace,
    Duration cacheSyncTimeout,
    Duration writeVisibilityTimeout,
    int managementPort,
    ModelPricing modelPricing,
    String deltasToken,
    AllowedTargets webhookTargets) {

  public static final String ADDRESS_VARIABLE = "THREADLINE_API_ADDRESS";
  public static final String PORT_VARIABLE = "THREADLINE_API_PORT";
  public static final String SYSTEM_NAMESPACE_VARIABLE = "THREADLINE_SYSTEM_NAMESPACE";
  public static final String MANAGEMENT_PORT_VARIABLE = "THREADLINE_API_MANAGEMENT_PORT";
  public static final String MODEL_PRICES_VARIABLE = "THREADLINE_MODEL_PRICES";
  public static final String DELTAS_TOKEN_VARIABLE = "THREADLINE_DELTAS_TOKEN";

  /** Set by the Downward API in the Helm chart: the namespace the API server runs in. */
  public static final String POD_NAMESPACE_VARIABLE = "POD_NAMESPACE";

  public static final String DEFAULT_ADDRESS = "0.0.0.0";
  public static final int DEFAULT_PORT = 8080;
  public static final int DEFAULT_MANAGEMENT_PORT = 9090;
  public static final String DEFAULT_SYSTEM_NAMESPACE = "threadline-system";
  public static final Duration DEFAULT_CACHE_SYNC_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_WRITE_VISIBILITY_TIMEOUT = Duration.ofSeconds(5);

  public ApiServerSettings {
    requireText(address, "address");
    requireText(systemNamespace, "systemNamespace");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
    }
    if (managementPort < -1 || managementPort > 65535) {
      throw new IllegalArgumentException(
          "managementPort must be between -1 and 65535: " + managementPort);
    }
    if (cacheSyncTimeout == null || cacheSyncTimeout.isNegative()) {
      throw new IllegalArgumentException("cacheSyncTimeout must be zero or positive");
    }
    if (writeVisibilityTimeout == null || writeVisibilityTimeout.isNegative()) {
      throw new IllegalArgumentException("writeVisibilityTimeout must be zero or positive");
    }
    if (modelPricing == null) {
      throw new IllegalArgumentException("modelPricing must not be null");
    }
    deltasToken = deltasToken == null ? "" : deltasToken.strip();
    webhookTargets = webhookTargets == null ? AllowedTargets.PUBLIC : webhookTargets;
  }

  /**
   * Listening on loopback, on free ports (API and metrics), with default timeouts and no prices
   * (only scripted agents), webhooks to loopback receivers allowed: the local launcher's choice.
   */
  public static ApiServerSettings loopback(String systemNamespace) {
    return new ApiServerSettings(
        "127.0.0.1",
        0,
        systemNamespace,
        DEFAULT_CACHE_SYNC_TIMEOUT,
        DEFAULT_WRITE_VISIBILITY_TIMEOUT,
        0,
        ModelPricing.none(),
        "",
        AllowedTargets.LOOPBACK);
  }

  /** The same, with these token prices. */
  public ApiServerSettings withModelPricing(ModelPricing pricing) {
    return new ApiServerSettings(
        address,
        port,
        systemNamespace,
        cacheSyncTimeout,
        writeVisibilityTimeout,
        managementPort,
        pricing,
        deltasToken,
        webhookTargets);
  }

  /** From this process's environment variables; see {@link #fromEnvironment(Map)}. */
  public static ApiServerSettings fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * From {@code THREADLINE_API_ADDRESS} (default 0.0.0.0), {@code THREADLINE_API_PORT} (8080; 0 =
   * random), {@code THREADLINE_API_MANAGEMENT_PORT} (9090; -1 = no metrics) and {@code
   * THREADLINE_SYSTEM_NAMESPACE} (default {@code POD_NAMESPACE}, else {@code threadline-system}),
   * {@code THREADLINE_MODEL_PRICES} (the operator's; none by default), {@code
   * THREADLINE_DELTAS_TOKEN} (none by default) and {@code THREADLINE_WEBHOOK_ALLOWED_TARGETS} (the
   * operator's; {@code public} by default).
   *
   * @throws IllegalArgumentException naming the variable that is malformed
   */
  public static ApiServerSettings fromEnvironment(Map<String, String> environment) {
    String address = valueOr(environment, ADDRESS_VARIABLE, DEFAULT_ADDRESS);
    int port = parsePort(environment, PORT_VARIABLE, DEFAULT_PORT, 0);
    int managementPort =
        parsePort(environment, MANAGEMENT_PORT_VARIABLE, DEFAULT_MANAGEMENT_PORT, -1);
    String systemNamespace =
        valueOr(
            environment,
            SYSTEM_NAMESPACE_VARIABLE,
            valueOr(environment, POD_NAMESPACE_VARIABLE, DEFAULT_SYSTEM_NAMESPACE));
    return new ApiServerSettings(
        address,
        port,
        systemNamespace,
        DEFAULT_CACHE_SYNC_TIMEOUT,
        DEFAULT_WRITE_VISIBILITY_TIMEOUT,
        managementPort,
        ModelPricing.parse(environment.get(MODEL_PRICES_VARIABLE)),
        environment.get(DELTAS_TOKEN_VARIABLE),
        AllowedTargets.forWebhooks(environment));
  }

  private static int parsePort(
      Map<String, String> environment, String variable, int fallback, int lowest) {
    String text = valueOr(environment, variable, Integer.toString(fallback));
    try {
      int port = Integer.parseInt(text.strip());
      if (port >= lowest && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    throw new IllegalArgumentException(
        variable + " must be a port number (" + lowest + "-65535): " + text);
  }

  private static String valueOr(Map<String, String> environment, String name, String fallback) {
    String value = environment.get(name);
    return value == null || value.isBlank() ? fallback : value.strip();
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return ("ApiServerSettings[address=%s, port=%d, systemNamespace=%s, managementPort=%d,"
            + " deltas=%s, webhookTargets=%s]")
        .formatted(
            address,
            port,
            systemNamespace,
            managementPort,
            deltasToken.isEmpty() ? "off" : "on",
            webhookTargets.value());
  }
}
