package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Kubernetes API for the local mode: fabric8's CRUD mock store behind a small Vert.x
 * HTTP front that makes it pass for a real API server with the operator, the api-server and {@code
 * kubectl} (discovery, Tables, real merge patches, watches, followed pod logs).
 */
public final class EmbeddedKubernetesApi implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKubernetesApi.class);
  private static final long START_STOP_TIMEOUT_SECONDS = 10;

  private final Vertx vertx;
  private final HttpServer server;
  private final ExecutorService workers;
  private final String host;

  private EmbeddedKubernetesApi(
      Vertx vertx, HttpServer server, ExecutorService workers, String host) {
    this.vertx = vertx;
    this.server = server;
    this.workers = workers;
    this.host = host;
  }

  /** Starts the API on {@code settings.host():settings.port()} with the CRDs installed. */
  public static EmbeddedKubernetesApi start(EmbeddedApiSettings settings) {
    CrudStore store = new CrudStore();
    ResourceTypes types = new ResourceTypes(store);
    ResourceOperations operations = new ResourceOperations(store, types);
    installBaseObjects(store, settings);
    types.refresh();

    ExecutorService workers = Executors.newCachedThreadPool(daemonThreads());
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(4));
    HttpServer server =
        vertx.createHttpServer(
            new HttpServerOptions()
                .setHost(settings.host())
                .setPort(settings.port())
                // HTTP/1.1 only: clients that probe for h2c would otherwise switch protocols.
                .setHttp2ClearTextEnabled(false)
                .setTcpNoDelay(true)
                .setCompressionSupported(false));
    // The front needs the bound port (for /api's server address); it is read lazily.
    AtomicInteger boundPort = new AtomicInteger(settings.port());
    ApiRequestRouter router =
        new ApiRequestRouter(types, operations, () -> settings.host() + ":" + boundPort.get());
    server.requestHandler(
        new HttpFront(
            router, operations, store, new PodLogStreamer(store, settings.podLogs()), workers));
    try {
      await(server.listen());
    } catch (RuntimeException e) {
      await(vertx.close());
      workers.shutdownNow();
      throw e;
    }
    boundPort.set(server.actualPort());
    EmbeddedKubernetesApi api = new EmbeddedKubernetesApi(vertx, server, workers, settings.host());
    LOG.info(
        "Embedded Kubernetes API listening on {} ({} CRDs)",
        api.url(),
        settings.crdResources().size());
    return api;
  }

  public int port() {
    return server.actualPort();
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://" + host + ":" + port();
  }

  /** A new fabric8 client for this API, namespace {@code default}; the caller closes it. */
  public KubernetesClient newClient() {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url())
            .withNamespace("default")
            .withHttp2Disable(true)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /**
   * Writes a kubeconfig (context {@code threadline-local}, namespace {@code default}) and returns
   * its path.
   */
  public Path writeKubeconfig(Path file) {
    return KubeconfigWriter.write(file, url());
  }

  @Override
  public void close() {
    try {
      await(server.close());
    } finally {
      await(vertx.close());
      workers.shutdown();
      LOG.info("Embedded Kubernetes API on port {} stopped", server.actualPort());
    }
  }

  /** The namespaces every cluster starts with, and the CRDs, written straight into the store. */
  private static void installBaseObjects(CrudStore store, EmbeddedApiSettings settings) {
    for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      ObjectNode namespace = Json.object();
      namespace.put("apiVersion", "v1");
      namespace.put("kind", "Namespace");
      namespace.putObject("metadata").put("name", name);
      namespace.putObject("status").put("phase", "Active");
      store.post("/api/v1/namespaces", Json.write(namespace));
    }
    YAMLMapper yaml = new YAMLMapper();
    for (URL resource : settings.crdResources()) {
      try (InputStream in = resource.openStream()) {
        JsonNode crd = yaml.readTree(in);
        CrdStatus.markEstablished((ObjectNode) crd);
        CrudStore.Response response = store.post(ResourceTypes.CRD_PATH, Json.write(crd));
        if (!response.ok()) {
          throw new IllegalStateException(
              "Cannot install the CRD " + resource + ": " + response.body());
        }
        LOG.debug("Installed CRD {}", Json.text(crd, "metadata", "name"));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the CRD " + resource, e);
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "embedded-kube-api-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private static <T> T await(Future<T> future) {
    try {
      return future
          .toCompletionStage()
          .toCompletableFuture()
          .get(START_STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("The embedded Kubernetes API failed to start or stop", e);
    }
  }
}
