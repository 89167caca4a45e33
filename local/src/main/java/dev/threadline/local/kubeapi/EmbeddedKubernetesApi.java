package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.local.kubeapi.rbac.BootstrapPolicy;
import dev.threadline.local.kubeapi.rbac.PolicyCache;
import dev.threadline.local.kubeapi.rbac.UserInfo;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Selection;
import dev.threadline.local.kubeapi.store.StoredObject;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Kubernetes API for the local mode: an SQLite object store behind a small Vert.x
 * HTTP front that makes it pass for a real API server with the operator, the api-server and {@code
 * kubectl} (discovery, Tables, real merge patches, watches, followed pod logs).
 */
public final class EmbeddedKubernetesApi implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKubernetesApi.class);
  private static final long START_STOP_TIMEOUT_SECONDS = 10;

  /** The in-process listener: loopback whatever the TLS listener binds, a free port each start. */
  private static final String IN_PROCESS_HOST = "127.0.0.1";

  private static final int IN_PROCESS_PORT = 0;

  private final Vertx vertx;
  private final HttpServer server;
  private final HttpServer inProcessServer;
  private final ExecutorService workers;
  private final String host;
  private final ObjectStore store;
  private final GarbageCollector collector;
  private final EventExpiry eventExpiry;
  private final Path temporaryFolder;
  private final Credentials credentials;
  private final String certificatePem;

  private EmbeddedKubernetesApi(
      Vertx vertx,
      HttpServer server,
      HttpServer inProcessServer,
      ExecutorService workers,
      String host,
      ObjectStore store,
      GarbageCollector collector,
      EventExpiry eventExpiry,
      Path temporaryFolder,
      Credentials credentials,
      String certificatePem) {
    this.credentials = credentials;
    this.certificatePem = certificatePem;
    this.vertx = vertx;
    this.server = server;
    this.inProcessServer = inProcessServer;
    this.workers = workers;
    this.host = host;
    this.store = store;
    this.collector = collector;
    this.eventExpiry = eventExpiry;
    this.temporaryFolder = temporaryFolder;
  }

  /** Starts the API on {@code settings.host():settings.port()} with the CRDs installed. */
  public static EmbeddedKubernetesApi start(EmbeddedApiSettings settings) {
    Path temporary = settings.storeFile() == null ? temporaryStoreFolder() : null;
    Path storeFile = temporary != null ? temporary.resolve("kubernetes.db") : settings.storeFile();
    ObjectStore store = ObjectStore.open(storeFile, settings.storeOptions());
    ResourceTypes types = new ResourceTypes(store);
    ResourceOperations operations = new ResourceOperations(store, types);
    // Listening before anything is written: the policy must see every RBAC write from now on.
    PolicyCache policies = new PolicyCache();
    store.onStored(policies::stored);
    store.onDeleted(policies::deleted);
    try {
      installBaseObjects(store, settings);
      for (String resource : PolicyCache.RESOURCES) {
        for (JsonNode item : store.list(Selection.all(resource), 0, null).items()) {
          JsonNode metadata = item.path("metadata");
          policies.stored(
              new ObjectKey(
                  resource, metadata.path("namespace").asText(""), metadata.path("name").asText()),
              item);
        }
      }
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    types.refresh();
    GarbageCollector collector = new GarbageCollector(store, types, operations);
    collector.start();
    EventExpiry eventExpiry =
        new EventExpiry(store, operations, settings.eventTtl(), Clock.systemUTC());
    eventExpiry.start();

    ExecutorService workers = Executors.newCachedThreadPool(daemonThreads());
    ServingCertificate certificate = ServingCertificate.create(settings.host());
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(4));
    HttpServer server =
        vertx.createHttpServer(
            listenerOptions(settings.host(), settings.port())
                .setSsl(true)
                .setKeyCertOptions(
                    new PfxOptions()
                        .setValue(Buffer.buffer(certificate.keyStore()))
                        .setPassword(certificate.keyStorePassword())));
    HttpServer inProcessServer =
        vertx.createHttpServer(listenerOptions(IN_PROCESS_HOST, IN_PROCESS_PORT));
    // The front needs the bound port (for /api's server address); it is read lazily.
    AtomicInteger boundPort = new AtomicInteger(settings.port());
    Credentials credentials = new Credentials();
    ApiRequestRouter router =
        new ApiRequestRouter(
            types,
            operations,
            () -> settings.host() + ":" + boundPort.get(),
            new RbacRequests(policies));
    // One front for both listeners: the same authentication and authorisation on each.
    HttpFront front =
        new HttpFront(
            router,
            store,
            new PodLogStreamer(store, settings.podLogs()),
            credentials,
            policies,
            workers);
    server.requestHandler(front);
    inProcessServer.requestHandler(front);
    try {
      await(server.listen());
      await(inProcessServer.listen());
    } catch (RuntimeException e) {
      await(vertx.close());
      workers.shutdownNow();
      eventExpiry.close();
      collector.close();
      store.close();
      throw e;
    }
    boundPort.set(server.actualPort());
    EmbeddedKubernetesApi api =
        new EmbeddedKubernetesApi(
            vertx,
            server,
            inProcessServer,
            workers,
            settings.host(),
            store,
            collector,
            eventExpiry,
            temporary,
            credentials,
            certificate.certificatePem());
    LOG.info(
        "Embedded Kubernetes API listening on {}, and on {} for this process's clients ({} CRDs)",
        api.url(),
        api.inProcessUrl(),
        settings.crdResources().size());
    return api;
  }

  public int port() {
    return server.actualPort();
  }

  /**
   * {@code https://127.0.0.1:PORT}: the address for everything outside this process (kubectl, the
   * kubeconfig, Pods).
   */
  public String url() {
    return "https://" + host + ":" + port();
  }

  /**
   * {@code http://127.0.0.1:PORT}: the same API without TLS, on loopback only, for clients in this
   * process (TLS on loopback cost about 14% of the CPU of a direct run). The bearer token is still
   * required and checked as on {@link #url()}; this address is handed to no one else.
   */
  public String inProcessUrl() {
    return "http://" + IN_PROCESS_HOST + ":" + inProcessServer.actualPort();
  }

  /**
   * A new fabric8 client for this API over {@link #inProcessUrl()}, as administrator, namespace
   * {@code default}; the caller closes it.
   */
  public KubernetesClient newClient() {
    return newClient(credentials.adminToken());
  }

  /**
   * A new fabric8 client for this API over {@link #inProcessUrl()} that authenticates with {@code
   * token} (one this API issued), namespace {@code default}; the caller closes it.
   */
  public KubernetesClient newClient(String token) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(inProcessUrl())
            .withOauthToken(token)
            .withNamespace("default")
            // HTTP/1.1: the front speaks neither h2 nor h2c (a JDK client allowed HTTP/2 would
            // offer an h2c upgrade on each new plain connection, only to be ignored).
            .withHttp2Disable(true)
            .build();
    return ThreadlineClients.builder("threadline-local").withConfig(config).build();
  }

  /**
   * Writes a kubeconfig (context {@code threadline-local}, namespace {@code default}) and returns
   * its path.
   */
  public Path writeKubeconfig(Path file) {
    return writeKubeconfig(file, credentials.adminToken(), "default");
  }

  /** The same with another identity's token and namespace (mode 600: it holds the token). */
  public Path writeKubeconfig(Path file, String token, String namespace) {
    return KubeconfigWriter.write(file, url(), caCertificateData(), token, namespace);
  }

  /** The API's TLS certificate (PEM) in base64, as kubeconfigs and fabric8 take it. */
  public String caCertificateData() {
    return Base64.getEncoder()
        .encodeToString(certificatePem.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  /**
   * The administrator's bearer token, new at each start: every request but {@code /healthz} and
   * {@code /version} needs it (or a service account's token), else 401.
   */
  public String adminToken() {
    return credentials.adminToken();
  }

  /**
   * A bearer token that authenticates as a namespace's service account ({@code
   * system:serviceaccount:<namespace>:<name>}, groups {@code system:serviceaccounts} and {@code
   * system:serviceaccounts:<namespace>}), for a Pod that mounts it or a local component that runs
   * as it: it may do what the RoleBindings and ClusterRoleBindings of the account grant.
   */
  public String issueServiceAccountToken(String namespace, String serviceAccount) {
    return credentials.issue(namespace, serviceAccount);
  }

  /**
   * A bearer token that authenticates as user {@code name} (group {@code system:authenticated}).
   */
  public String issueUserToken(String name) {
    return credentials.issue(UserInfo.user(name));
  }

  @Override
  public void close() {
    // Each part is closed even when another one fails: the store above all, so that its file is
    // left consistent and its watches end.
    RuntimeException failure = null;
    for (Runnable step :
        List.<Runnable>of(
            () -> await(server.close()),
            () -> await(inProcessServer.close()),
            () -> await(vertx.close()),
            workers::shutdown,
            eventExpiry::close,
            collector::close,
            store::close,
            this::deleteTemporaryFolder)) {
      try {
        step.run();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    LOG.info("Embedded Kubernetes API on port {} stopped", server.actualPort());
    if (failure != null) {
      throw failure;
    }
  }

  /** The store's revision: every write advances it (for tests and benchmarks). */
  public long revision() {
    return store.revision();
  }

  private static Path temporaryStoreFolder() {
    try {
      return Files.createTempDirectory("threadline-kube-store");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a folder for the object store", e);
    }
  }

  private void deleteTemporaryFolder() {
    if (temporaryFolder == null) {
      return;
    }
    try (Stream<Path> files = Files.list(temporaryFolder)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(temporaryFolder);
    } catch (IOException e) {
      LOG.debug("Could not delete the temporary object store {}", temporaryFolder, e);
    }
  }

  /**
   * The namespaces every cluster starts with, and the CRDs, written straight into the store:
   * created when absent, and CRDs replaced when this version of Threadline ships a different one.
   */
  private static void installBaseObjects(ObjectStore store, EmbeddedApiSettings settings) {
    for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      ObjectNode namespace = Json.object();
      namespace.put("apiVersion", "v1");
      namespace.put("kind", "Namespace");
      namespace.putObject("metadata").put("name", name);
      namespace.putObject("status").put("phase", "Active");
      ObjectKey key = new ObjectKey("namespaces", "", name);
      if (store.get(key).isEmpty()) {
        stampNew(namespace);
        store.create(key, namespace);
      }
    }
    // The bootstrap policy, restored when changed, as kube-apiserver reconciles it at each start.
    BootstrapPolicy.objects()
        .forEach((key, object) -> {
          Optional<StoredObject> installed = store.get(key);
          if (installed.isEmpty()) {
            stampNew(object);
            store.create(key, object);
          } else if (!sameContent(installed.get().object(), object)) {
            ObjectNode metadata = Json.metadata(object);
            metadata.setAll((ObjectNode) installed.get().object().get("metadata"));
            store.update(key, installed.get().revision(), object);
          }
        });
    YAMLMapper yaml = new YAMLMapper();
    for (URL resource : settings.crdResources()) {
      try (InputStream in = resource.openStream()) {
        ObjectNode crd = (ObjectNode) yaml.readTree(in);
        CrdStatus.markEstablished(crd);
        ObjectKey key =
            new ObjectKey(ResourceTypes.CRD_RESOURCE, "", Json.text(crd, "metadata", "name"));
        Optional<StoredObject> installed = store.get(key);
        if (installed.isEmpty()) {
          stampNew(crd);
          store.create(key, crd);
        } else if (!sameSpec(installed.get().object(), crd)) {
          ObjectNode metadata = Json.metadata(crd);
          metadata.setAll((ObjectNode) installed.get().object().get("metadata"));
          store.update(key, installed.get().revision(), crd);
        }
        LOG.debug("Installed CRD {}", key.name());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the CRD " + resource, e);
      }
    }
  }

  private static void stampNew(ObjectNode object) {
    ObjectNode metadata = Json.metadata(object);
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", ObjectLifecycle.now());
    metadata.put("generation", 1);
  }

  private static boolean sameContent(JsonNode installed, JsonNode shipped) {
    for (String field : List.of("rules", "aggregationRule", "roleRef", "subjects")) {
      if (!installed.path(field).equals(shipped.path(field))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameSpec(JsonNode installed, JsonNode shipped) {
    return installed.path("spec").equals(shipped.path("spec"));
  }

  /** What both listeners share: HTTP/1.1 only (no ALPN, no h2c), no compression. */
  private static HttpServerOptions listenerOptions(String host, int port) {
    return new HttpServerOptions()
        .setHost(host)
        .setPort(port)
        .setUseAlpn(false)
        .setHttp2ClearTextEnabled(false)
        .setTcpNoDelay(true)
        .setCompressionSupported(false);
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
