package dev.threadline.api.support;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.auth.ApiKeys;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.CrdManifests;
import dev.threadline.crds.client.ThreadlineClients;
import dev.threadline.crds.common.Labels;
import dev.threadline.history.History;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.InputStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;

/**
 * One fabric8 CRUD mock Kubernetes API and one API server on it, shared by every test class in the
 * JVM (a Spring context costs seconds on two shared cores). Tests stay independent by creating
 * their own users, each with its own namespace.
 */
public final class SharedApiServer {
  public static final String SYSTEM_NAMESPACE = "threadline-system";

  /** The models tests may give a provider; any other is unpriced, so refused. */
  public static final String PRICES = "gpt-4.1-mini=0.40/1.60/0.10,gpt-5=1.25/10";

  public static final String KEEPALIVE_INTERVAL = "300ms";

  /**
   * Each user's history quota here: far above what a test's runs write (a few MB at most), low
   * enough that a test can fill it.
   */
  public static final long HISTORY_BYTES = 16L * 1024 * 1024;

  private static SharedApiServer instance;

  private final KubernetesMockServer kubernetes;
  private final NamespacedKubernetesClient client;
  private final RunningApiServer server;
  private final ApiClient api;
  private final History history = History.temporary();

  private SharedApiServer() {
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    kubernetes =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            expectations,
            new KubernetesMixedDispatcher(expectations),
            false);
    kubernetes.init();
    // The client every Threadline process uses: it skips custom resources it cannot read.
    try (NamespacedKubernetesClient plain = kubernetes.createClient()) {
      client =
          ThreadlineClients.builder("threadline-api-server")
              .withConfig(plain.getConfiguration())
              .build()
              .adapt(NamespacedKubernetesClient.class);
    }
    // Every kind, so that status subresources are honoured as in a cluster.
    for (String plural :
        List.of(
            "agents",
            "threads",
            "runs",
            "usageledgers",
            "schedules",
            "environments",
            "containers",
            "webhookdeliveries")) {
      registerCrd(CrdManifests.resourceOf(plural));
    }
    // Short enough that a test sees a keepalive without waiting the production 15 s.
    System.setProperty("threadline.stream.keepalive-interval", KEEPALIVE_INTERVAL);
    System.setProperty("threadline.limits.history-bytes", Long.toString(HISTORY_BYTES));
    server =
        ThreadlineApiServer.start(
            client,
            ApiServerSettings.loopback(SYSTEM_NAMESPACE)
                .withModelPricing(ModelPricing.parse(PRICES)),
            Telemetry.off(),
            history);
    api = new ApiClient(server.baseUrl());
  }

  public static synchronized SharedApiServer get() {
    if (instance == null) {
      instance = new SharedApiServer();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "shared-api-server-stop"));
    }
    return instance;
  }

  public ApiClient api() {
    return api;
  }

  /** The running server itself, e.g. to read its request mappings. */
  public RunningApiServer server() {
    return server;
  }

  /** E.g. {@code http://127.0.0.1:41234}, for clients other than {@link ApiClient}. */
  public String baseUrl() {
    return server.baseUrl();
  }

  /** The unauthenticated Prometheus endpoint on the management port. */
  public String metricsUrl() {
    return server.metricsUrl().orElseThrow();
  }

  /** The history store the API server reads conversation content from (and FakeOperator writes). */
  public History history() {
    return history;
  }

  public NamespacedKubernetesClient client() {
    return client;
  }

  public KubernetesMockServer kubernetes() {
    return kubernetes;
  }

  /** A new user with a tenant namespace and a key; returns once the server accepts the key. */
  public TestUser newUser(String name) {
    String userId = unique(name);
    String namespace = "tenant-" + userId;
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(namespace)
                .addToLabels(Labels.TENANT, "true")
                .addToAnnotations(Labels.USER_ANNOTATION, userId)
                .endMetadata()
                .build())
        .create();
    String key = addKey(userId, null);
    TestUser user = new TestUser(userId, namespace, key);
    api.awaitAccepted(key);
    return user;
  }

  /** Registers a key with more Secret data (e.g. scopes, rateLimit) for a user. */
  public String addKey(String userId, String key, Map<String, String> options) {
    client
        .secrets()
        .inNamespace(SYSTEM_NAMESPACE)
        .resource(ApiKeys.keySecret(SYSTEM_NAMESPACE, userId, key, null, options))
        .create();
    return key;
  }

  /** Registers a key for a user (who may have no namespace); {@code expiresAt} may be null. */
  public String addKey(String userId, Instant expiresAt) {
    String key = ApiKeys.newKey();
    Secret secret = ApiKeys.keySecret(SYSTEM_NAMESPACE, userId, key, expiresAt);
    client.secrets().inNamespace(SYSTEM_NAMESPACE).resource(secret).create();
    return key;
  }

  public static String unique(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
  }

  private void registerCrd(String resource) {
    try (InputStream crd = SharedApiServer.class.getResourceAsStream(resource)) {
      client.apiextensions().v1().customResourceDefinitions().load(crd).create();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("Cannot read " + resource, e);
    }
  }

  private void stop() {
    server.close();
    history.close();
    client.close();
    kubernetes.destroy();
  }
}
