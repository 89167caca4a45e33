package dev.threadline.api;

import dev.threadline.api.config.ApiServerApplication;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.metrics.ManagementPort;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.history.History;
import dev.threadline.history.HistorySettings;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the REST API server. Callers hand in the Kubernetes client and the settings; nothing is
 * read from Spring configuration files, so the server behaves the same wherever it is embedded.
 */
public final class ThreadlineApiServer {
  private static final Logger log = LoggerFactory.getLogger(ThreadlineApiServer.class);

  /**
   * Wins over environment variables: Kubernetes injects {@code <SERVICE>_PORT} variables that
   * Spring would otherwise read as {@code server.port}.
   */
  private static final String PROPERTY_SOURCE = "threadlineApiServer";

  private ThreadlineApiServer() {}

  /**
   * The API server's {@code service.name} in traces (unless {@code OTEL_SERVICE_NAME} says else).
   */
  public static final String SERVICE_NAME = "threadline-api-server";

  /** Starts the HTTP server using this client (not closed by the server), without traces. */
  public static RunningApiServer start(KubernetesClient client, ApiServerSettings settings) {
    return start(client, settings, Telemetry.off());
  }

  /**
   * Starts the HTTP server using this client; each request is a span of {@code telemetry} (which
   * the caller owns and closes after the server).
   */
  public static RunningApiServer start(
      KubernetesClient client, ApiServerSettings settings, Telemetry telemetry) {
    History history = History.temporary();
    try {
      return start(client, settings, telemetry, history).closing(history);
    } catch (RuntimeException e) {
      history.close();
      throw e;
    }
  }

  /**
   * With the history store that REST reads conversation content from (owned by the caller, closed
   * after the server). Without one (above), a temporary store: for tests and embedding.
   */
  public static RunningApiServer start(
      KubernetesClient client, ApiServerSettings settings, Telemetry telemetry, History history) {
    ManagementPort managementPort = new ManagementPort();
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ApiServerApplication.class)
            .web(WebApplicationType.SERVLET)
            .bannerMode(Banner.Mode.OFF)
            .registerShutdownHook(false)
            .main(ApiServerApplication.class)
            // Read before initializers run, so set as defaults: unknown routes are answered as 404
            // JSON; a WARN per scanner probe would drown the log.
            .properties("logging.level.org.springframework.web.servlet.PageNotFound=error")
            .listeners(managementPort)
            .initializers(applicationContext ->
                register(
                    (GenericApplicationContext) applicationContext,
                    client,
                    settings,
                    telemetry,
                    history))
            .run();
    RunningApiServer server =
        new SpringRunningApiServer(context, settings.address(), managementPort.port());
    awaitCaches(context, settings);
    log.info(
        "Threadline API server listening on {} (metrics: {})",
        server.baseUrl(),
        server.metricsUrl().orElse("off"));
    return server;
  }

  /**
   * In-cluster entry point: client from the environment (service account), settings from env vars.
   */
  public static void main(String[] args) {
    ApiServerSettings settings = ApiServerSettings.fromEnvironment();
    Telemetry telemetry = Telemetry.fromEnvironment(SERVICE_NAME, System.getenv());
    KubernetesClient client = ThreadlineClients.builder("threadline-api-server").build();
    RunningApiServer server;
    History history;
    try {
      history = History.open(HistorySettings.fromEnvironment(System.getenv(), null));
    } catch (RuntimeException failed) {
      client.close();
      telemetry.close();
      throw failed;
    }
    try {
      server = start(client, settings, telemetry, history);
    } catch (RuntimeException failed) {
      history.close();
      client.close();
      telemetry.close();
      throw failed;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  history.close();
                  telemetry.close();
                  client.close();
                },
                "threadline-api-shutdown"));
  }

  private static void register(
      GenericApplicationContext context,
      KubernetesClient client,
      ApiServerSettings settings,
      Telemetry telemetry,
      History history) {
    // registerSingleton: an instance we do not own, so the context never closes it.
    context.getBeanFactory().registerSingleton("kubernetesClient", client);
    context.getBeanFactory().registerSingleton("history", history);
    context.getBeanFactory().registerSingleton("telemetry", telemetry);
    context.getBeanFactory().registerSingleton("apiServerSettings", settings);
    context
        .getEnvironment()
        .getPropertySources()
        .addFirst(new MapPropertySource(PROPERTY_SOURCE, properties(settings)));
  }

  private static Map<String, Object> properties(ApiServerSettings settings) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("server.address", settings.address());
    properties.put("server.port", settings.port());
    // Errors are ours: no whitelabel page, no static resources standing in for unknown routes.
    properties.put("server.error.whitelabel.enabled", false);
    properties.put("spring.web.resources.add-mappings", false);
    properties.put("spring.mvc.problemdetails.enabled", false);
    // Bodies are JSON or raw uploads, never forms: parsing a PUT's form body would eat an upload
    // sent as application/x-www-form-urlencoded (curl's default) and let it choose parameters.
    properties.put("spring.mvc.formcontent.filter.enabled", false);
    properties.put("spring.main.banner-mode", "off");
    // Prometheus at /metrics on a port of its own, without an API key: the port is for scrapers
    // inside the cluster (the chart publishes it on its own Service), never for the API's clients.
    properties.put("management.server.port", settings.managementPort());
    properties.put("management.server.address", settings.address());
    properties.put("management.endpoints.web.base-path", "/");
    properties.put("management.endpoints.web.exposure.include", "prometheus");
    properties.put("management.endpoints.web.path-mapping.prometheus", "metrics");
    properties.put("management.endpoints.access.default", "none");
    properties.put("management.endpoint.prometheus.access", "read-only");
    properties.put(
        "management.metrics.distribution.percentiles-histogram.http.server.requests", true);
    properties.put("management.metrics.tags.application", "threadline-api-server");
    return properties;
  }

  private static void awaitCaches(
      ConfigurableApplicationContext context, ApiServerSettings settings) {
    long deadline = System.nanoTime() + settings.cacheSyncTimeout().toNanos();
    for (ManagedInformer<?> informer : context.getBeansOfType(ManagedInformer.class).values()) {
      Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      if (!informer.awaitReady(remaining)) {
        log.warn(
            "Cache {} not loaded after {}; serving 503 until it is",
            informer.name(),
            settings.cacheSyncTimeout());
      }
    }
  }
}
