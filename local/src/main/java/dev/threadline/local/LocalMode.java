package dev.threadline.local;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.core.network.AllowedTargets;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.history.History;
import dev.threadline.history.HistorySettings;
import dev.threadline.local.kubeapi.EmbeddedApiSettings;
import dev.threadline.local.kubeapi.EmbeddedKubernetesApi;
import dev.threadline.local.kubelet.KubeletSettings;
import dev.threadline.local.kubelet.LocalCluster;
import dev.threadline.local.kubelet.limits.ResourceControl;
import dev.threadline.local.kubelet.limits.ResourceControls;
import dev.threadline.local.kubelet.sandbox.Confinement;
import dev.threadline.local.podlog.PodLogSource;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.computer.ComputerStatus;
import dev.threadline.operator.computer.EventRecorder;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.container.ContainerSettings;
import dev.threadline.operator.deltas.DeltaSettings;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.webhooks.WebhookSettings;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole service in one JVM: an embedded Kubernetes API, a process kubelet with the Job and
 * CronJob controllers, and the operator and API server unchanged. Everything that differs from a
 * cluster lives here, not in the operator or API server.
 */
public final class LocalMode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalMode.class);
  static final String SYSTEM_NAMESPACE = "threadline-system";
  private static final java.util.regex.Pattern USER_FILE_NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,127}");

  /** The embedded Kubernetes API's database, in the data folder: everything survives a restart. */
  static final String STORE_FILE = "kubernetes.db";

  /**
   * The history store's default, in the data folder: conversation content (messages, run events,
   * memory, diffs, workspace archives, archived threads), unless {@code THREADLINE_HISTORY_URL}
   * names another database.
   */
  static final String HISTORY_FILE = "history.db";

  private final Deque<AutoCloseable> started;
  private final EmbeddedKubernetesApi kubernetes;
  private final KubernetesClient client;
  private final KubernetesClient apiServerClient;
  private final Map<String, Path> userKubeconfigs;
  private final History history;
  private final ApiServerSettings apiSettings;
  private final Telemetry apiTelemetry;
  private volatile RunningApiServer api;
  private final Path kubeconfig;
  private final Map<String, String> apiKeys;
  private final Map<String, String> namespaces;
  private final String operatorMetricsUrl;

  private LocalMode(
      Deque<AutoCloseable> started,
      EmbeddedKubernetesApi kubernetes,
      KubernetesClient client,
      KubernetesClient apiServerClient,
      Map<String, Path> userKubeconfigs,
      History history,
      ApiServerSettings apiSettings,
      Telemetry apiTelemetry,
      RunningApiServer api,
      Path kubeconfig,
      Map<String, String> apiKeys,
      Map<String, String> namespaces,
      String operatorMetricsUrl) {
    this.started = started;
    this.kubernetes = kubernetes;
    this.client = client;
    this.apiServerClient = apiServerClient;
    this.userKubeconfigs = Map.copyOf(userKubeconfigs);
    this.history = history;
    this.apiSettings = apiSettings;
    this.apiTelemetry = apiTelemetry;
    this.api = api;
    this.kubeconfig = kubeconfig;
    this.apiKeys = apiKeys;
    this.namespaces = namespaces;
    this.operatorMetricsUrl = operatorMetricsUrl;
  }

  /** {@value EmbeddedApiSettings#EVENT_TTL}: how long the embedded API keeps an Event. */
  static Duration eventTtl(Map<String, String> environment) {
    String value = environment.get(EmbeddedApiSettings.EVENT_TTL);
    return value == null || value.isBlank()
        ? EmbeddedApiSettings.DEFAULT_EVENT_TTL
        : WebhookSettings.duration(EmbeddedApiSettings.EVENT_TTL, value);
  }

  public static LocalMode start(LocalSettings settings) {
    return start(settings, UnaryOperator.identity());
  }

  /** With the operator's settings adjusted, e.g. a short agent deadline in a test. */
  public static LocalMode start(
      LocalSettings settings, UnaryOperator<OperatorSettings> operatorSettings) {
    return start(settings, System.getenv(), operatorSettings);
  }

  /**
   * With the variables the operator and the sandbox check read given rather than taken from this
   * process, e.g. a canary model key in a test. Pods never see them: each gets only its own.
   */
  public static LocalMode start(
      LocalSettings settings,
      Map<String, String> environment,
      UnaryOperator<OperatorSettings> operatorSettings) {
    Deque<AutoCloseable> started = new ArrayDeque<>();
    try {
      Files.createDirectories(settings.dataDir());
      History history =
          History.open(
              HistorySettings.fromEnvironment(
                  environment, settings.dataDir().resolve(HISTORY_FILE)));
      // Closed last (pushed first): the operator and the API server write to it until they stop.
      started.push(history);
      // The API serves the kubelet's logs, and the kubelet needs the API: tie the knot lazily.
      AtomicReference<LocalCluster> cluster = new AtomicReference<>();
      PodLogSource podLogs =
          (namespace, pod, container) ->
              Optional.ofNullable(cluster.get())
                  .flatMap(c -> c.podLogs().find(namespace, pod, container));
      EmbeddedKubernetesApi kubernetes =
          EmbeddedKubernetesApi.start(
              EmbeddedApiSettings.builder()
                  .port(settings.kubePort())
                  .podLogs(podLogs)
                  .storeFile(settings.dataDir().resolve(STORE_FILE))
                  .eventTtl(eventTtl(environment))
                  .build());
      started.push(kubernetes);
      KubernetesClient client = kubernetes.newClient();
      started.push(client);
      Path kubeconfig = kubernetes.writeKubeconfig(settings.dataDir().resolve("kubeconfig"));
      OperatorSettings operatorConfiguration =
          operatorSettings.apply(operatorSettings(environment));
      // Runs the previous process was running end as the operator's worker ends a failed run.
      InterruptedRuns.recover(
          client,
          new ComputerStatus(
              new EventRecorder(
                  new RunEventLog(history), operatorConfiguration.history().toolOutput())),
          ModelPricing.parse(operatorConfiguration.modelPrices()));

      Map<String, String> keys =
          settings.apiKeys().isEmpty()
              ? Map.of(LocalApiKey.readOrCreate(settings.dataDir()), LocalSettings.DEFAULT_USER)
              : settings.apiKeys();
      Map<String, String> namespaces =
          new TenantProvisioner(client, SYSTEM_NAMESPACE).provision(keys);
      // Each component as the chart runs it: its own ServiceAccount, with the chart's rules.
      ChartRbac chartRbac = ChartRbac.load(client);
      if (!chartRbac.namespace().equals(SYSTEM_NAMESPACE)) {
        throw new IllegalStateException(
            ChartRbac.RESOURCE + " was rendered for namespace " + chartRbac.namespace());
      }
      chartRbac.install(client);
      KubernetesClient operatorClient =
          kubernetes.newClient(
              kubernetes.issueServiceAccountToken(
                  SYSTEM_NAMESPACE, chartRbac.serviceAccountOf("operator")));
      started.push(operatorClient);
      KubernetesClient apiServerClient =
          kubernetes.newClient(
              kubernetes.issueServiceAccountToken(
                  SYSTEM_NAMESPACE, chartRbac.serviceAccountOf("api-server")));
      started.push(apiServerClient);
      Map<String, Path> userKubeconfigs = new LinkedHashMap<>();
      namespaces.forEach((user, namespace) ->
          userKubeconfigs.put(
              user,
              kubernetes.writeKubeconfig(
                  settings.dataDir().resolve(userKubeconfigName(user, namespace)),
                  kubernetes.issueUserToken(user),
                  namespace)));

      JavaCommand java = JavaCommand.ofCurrentProcess();
      Confinement confinement = SandboxConfinementCheck.check(environment, keys.size());
      ResourceControl resources = ResourceControls.detect(environment);
      started.push(resources);
      LOG.info(resources.describe());
      cluster.set(
          LocalCluster.start(
              client,
              KubeletSettings.of(settings.dataDir())
                  .withApiAccess(
                      new KubeletSettings.ApiAccess(
                          kubernetes.url(),
                          kubernetes.caCertificateData(),
                          kubernetes::issueServiceAccountToken))
                  .withConfinement(confinement)
                  .withResources(resources, podPidsLimit(environment)),
              LocalImageCatalog.create(java)));
      started.push(cluster.get());
      // Traces when OTEL_* variables ask for them: each service exports under its own name, and
      // is closed after it (pushed before it) so that its last spans are sent.
      Telemetry operatorTelemetry =
          Telemetry.fromEnvironment(ThreadlineOperator.SERVICE_NAME, environment);
      started.push(operatorTelemetry);
      Telemetry apiTelemetry =
          Telemetry.fromEnvironment(ThreadlineApiServer.SERVICE_NAME, environment);
      started.push(apiTelemetry);
      ThreadlineOperator operator =
          ThreadlineOperator.start(
              operatorClient, operatorConfiguration, Clock.systemUTC(), operatorTelemetry, history);
      started.push(operator);
      // Health and metrics on loopback only, on a free port: nothing outside this machine scrapes.
      int operatorPort =
          operator.serveHttpEndpoints(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      ApiServerSettings loopback = ApiServerSettings.loopback(SYSTEM_NAMESPACE);
      ApiServerSettings apiSettings =
          new ApiServerSettings(
              settings.apiAddress(),
              settings.apiPort(),
              SYSTEM_NAMESPACE,
              loopback.cacheSyncTimeout(),
              loopback.writeVisibilityTimeout(),
              loopback.managementPort(),
              // The operator's prices: an agent may name only a model the operator can bill.
              ModelPricing.parse(operatorConfiguration.modelPrices()),
              // The operator's live channel, over loopback like everything here.
              operatorConfiguration.deltas().token(),
              // Registration refuses what the operator would not deliver.
              operatorConfiguration.webhooks().allowedTargets());
      // Last, and kept apart from the rest: it is the one part that may be restarted on its own.
      RunningApiServer api =
          ThreadlineApiServer.start(apiServerClient, apiSettings, apiTelemetry, history);
      return new LocalMode(
          started,
          kubernetes,
          client,
          apiServerClient,
          userKubeconfigs,
          history,
          apiSettings,
          apiTelemetry,
          api,
          kubeconfig,
          new LinkedHashMap<>(keys),
          namespaces,
          "http://127.0.0.1:" + operatorPort + "/metrics");
    } catch (IOException e) {
      closeAll(started);
      throw new UncheckedIOException("cannot prepare the data folder " + settings.dataDir(), e);
    } catch (RuntimeException e) {
      closeAll(started);
      throw e;
    }
  }

  /**
   * The operator as a cluster would run it, from the same variables, pointed at the images the
   * local kubelet knows, without leader election or a health port, and free to deliver webhooks to
   * loopback (everything here is on loopback, receivers included) — loopback, not the private
   * networks or the metadata address, unless {@code THREADLINE_WEBHOOK_ALLOWED_TARGETS} says else.
   */
  static OperatorSettings operatorSettings(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    env.putAll(
        Map.of(
            "THREADLINE_RUNNER_IMAGE",
            LocalImageCatalog.RUNNER_IMAGE,
            "THREADLINE_TRIGGER_IMAGE",
            LocalImageCatalog.TRIGGER_IMAGE,
            "THREADLINE_REGISTRY",
            LocalImageCatalog.REGISTRY,
            "THREADLINE_REGISTRY_PUSH_SECRET",
            "",
            "THREADLINE_LEADER_ELECTION",
            "false",
            "THREADLINE_LEASE_NAMESPACE",
            SYSTEM_NAMESPACE,
            "THREADLINE_OPERATOR_HEALTH_PORT",
            "-1"));
    if (blank(environment.get(AllowedTargets.WEBHOOKS_VARIABLE))
        && blank(environment.get(AllowedTargets.LEGACY_WEBHOOKS_VARIABLE))) {
      env.put(AllowedTargets.WEBHOOKS_VARIABLE, AllowedTargets.LOOPBACK.value());
    }
    // The live channel of streamTokens runs: served on the operator's loopback port (its address is
    // known once served), with a token of this launch unless one is given.
    env.put(DeltaSettings.ADDRESS_VARIABLE, "");
    if (env.get(DeltaSettings.TOKEN_VARIABLE) == null
        || env.get(DeltaSettings.TOKEN_VARIABLE).isBlank()) {
      env.put(DeltaSettings.TOKEN_VARIABLE, UUID.randomUUID().toString());
    }
    OperatorSettings settings = OperatorSettings.fromEnvironment(env);
    return settings.withContainers(localContainers(settings.containers(), environment));
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  /** {@value KubeletSettings#PIDS_VARIABLE}: the processes one sandbox container may have. */
  static long podPidsLimit(Map<String, String> environment) {
    String value = environment.get(KubeletSettings.PIDS_VARIABLE);
    if (value == null || value.isBlank()) {
      return KubeletSettings.DEFAULT_PIDS;
    }
    try {
      long pids = Long.parseLong(value.strip());
      if (pids >= 1) {
        return pids;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        KubeletSettings.PIDS_VARIABLE + " must be a whole number of at least 1, got: " + value);
  }

  /**
   * Pods here are host processes sharing one network: each container's file API gets its own port,
   * bound on loopback only, from 8100-8180 unless {@code THREADLINE_CONTAINER_PORTS} says otherwise
   * (8080, the contract range's first port, is the REST API's default port in local mode).
   */
  static ContainerSettings localContainers(
      ContainerSettings configured, Map<String, String> environment) {
    boolean rangeGiven = environment.get(ContainerSettings.PORTS_VARIABLE) != null;
    return configured.sharingNetwork(
        rangeGiven ? configured.firstPort() : 8100,
        rangeGiven ? configured.lastPort() : 8180,
        "127.0.0.1");
  }

  public String apiUrl() {
    return api.baseUrl();
  }

  /** The API server's Prometheus endpoint (no key; it moves when the API server restarts). */
  public String apiMetricsUrl() {
    return api.metricsUrl().orElseThrow();
  }

  /** The operator's Prometheus endpoint (no key), on loopback. */
  public String operatorMetricsUrl() {
    return operatorMetricsUrl;
  }

  public String kubernetesUrl() {
    return kubernetes.url();
  }

  public Path kubeconfig() {
    return kubeconfig;
  }

  /**
   * The kubeconfig of a user ({@code <data folder>/kubeconfig-<user>}): its identity is bound to
   * the user's namespace only, and its token is new at each start.
   */
  public Path userKubeconfig(String user) {
    Path file = userKubeconfigs.get(user);
    if (file == null) {
      throw new IllegalArgumentException("no user " + user);
    }
    return file;
  }

  /**
   * {@code kubeconfig-<user>}, or {@code kubeconfig-<namespace>} for a user id no file may name.
   */
  static String userKubeconfigName(String user, String namespace) {
    return "kubeconfig-" + (USER_FILE_NAME.matcher(user).matches() ? user : namespace);
  }

  /** API key to user id. */
  public Map<String, String> apiKeys() {
    return Map.copyOf(apiKeys);
  }

  /** User id to namespace. */
  public Map<String, String> namespaces() {
    return Map.copyOf(namespaces);
  }

  /**
   * Stops the API server and starts a fresh one (new caches, no memory of the old one's streams),
   * as a rolling update of the api-server Deployment would; the operator and the runs go on. With
   * port 0 the new server listens on another free port: read {@link #apiUrl()} again.
   */
  public synchronized void restartApiServer() {
    api.close();
    api = ThreadlineApiServer.start(apiServerClient, apiSettings, apiTelemetry, history);
  }

  /** The history store the local mode's parts share (owned by the local mode: do not close it). */
  public History history() {
    return history;
  }

  /** A client of the embedded API (owned by the local mode: do not close it). */
  public KubernetesClient client() {
    return client;
  }

  @Override
  public void close() {
    try {
      api.close();
    } catch (RuntimeException e) {
      LOG.warn("Could not stop the API server cleanly", e);
    }
    closeAll(started);
  }

  private static void closeAll(Deque<AutoCloseable> started) {
    while (!started.isEmpty()) {
      AutoCloseable next = started.pop();
      try {
        next.close();
      } catch (Exception e) {
        LOG.warn("Could not stop {} cleanly", next.getClass().getSimpleName(), e);
      }
    }
  }
}
