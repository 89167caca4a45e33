package dev.threadline.operator.container;

import dev.threadline.operator.sandbox.SandboxCallers;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where containers' file APIs listen. In a cluster every Pod has its own IP, so each container can
 * use the first port of the range ({@code sharedNetwork=false}). Where Pods share one network
 * (local mode runs them as host processes), the operator gives each container its own free port of
 * the range instead, and the runner binds only {@code bindAddress}.
 *
 * @param firstPort {@code THREADLINE_CONTAINER_PORTS}, default {@code 8080-8180}: the contract's
 *     range
 * @param lastPort the range's last port
 * @param sharedNetwork {@code THREADLINE_CONTAINER_SHARED_NETWORK}, default false: ports must be
 *     unique
 * @param bindAddress {@code THREADLINE_CONTAINER_BIND_ADDRESS}, default {@code 0.0.0.0}
 * @param apiServerNamespace {@code THREADLINE_API_SERVER_NAMESPACE}, default the operator's own
 *     ({@code THREADLINE_LEASE_NAMESPACE}, {@code POD_NAMESPACE}, else {@code threadline-system}):
 *     where the only callers of a file API run
 * @param apiServerPodLabels {@code THREADLINE_API_SERVER_POD_LABELS}, default {@code
 *     app.kubernetes.io/component=api-server}: {@code k=v,k=v} labels of those callers' Pods
 * @param workerPodLabels {@code THREADLINE_WORKER_POD_LABELS}, default {@code
 *     app.kubernetes.io/component=operator}: the labels of the worker's Pods (the operator's, in
 *     the api-server's namespace), the only callers of a run's sandbox
 */
public record ContainerSettings(
    int firstPort,
    int lastPort,
    boolean sharedNetwork,
    String bindAddress,
    String apiServerNamespace,
    Map<String, String> apiServerPodLabels,
    Map<String, String> workerPodLabels) {
  public static final String PORTS_VARIABLE = "THREADLINE_CONTAINER_PORTS";
  public static final String API_SERVER_POD_LABELS_VARIABLE = "THREADLINE_API_SERVER_POD_LABELS";
  static final String DEFAULT_API_SERVER_NAMESPACE = "threadline-system";
  static final Map<String, String> DEFAULT_API_SERVER_POD_LABELS =
      Map.of("app.kubernetes.io/component", "api-server");
  public static final String WORKER_POD_LABELS_VARIABLE = "THREADLINE_WORKER_POD_LABELS";
  static final Map<String, String> DEFAULT_WORKER_POD_LABELS =
      Map.of("app.kubernetes.io/component", "operator");

  public ContainerSettings {
    if (firstPort < 1 || lastPort > 65535 || firstPort > lastPort) {
      throw new IllegalArgumentException(
          PORTS_VARIABLE + " must be a range like 8080-8180, got " + firstPort + "-" + lastPort);
    }
    bindAddress = bindAddress == null || bindAddress.isBlank() ? "0.0.0.0" : bindAddress.strip();
    apiServerNamespace =
        apiServerNamespace == null || apiServerNamespace.isBlank()
            ? DEFAULT_API_SERVER_NAMESPACE
            : apiServerNamespace.strip();
    apiServerPodLabels =
        apiServerPodLabels == null || apiServerPodLabels.isEmpty()
            ? DEFAULT_API_SERVER_POD_LABELS
            : Map.copyOf(apiServerPodLabels);
    workerPodLabels =
        workerPodLabels == null || workerPodLabels.isEmpty()
            ? DEFAULT_WORKER_POD_LABELS
            : Map.copyOf(workerPodLabels);
  }

  /** The api-server's Pods: the callers of a container's sandbox. */
  public SandboxCallers apiServer() {
    return new SandboxCallers(apiServerNamespace, apiServerPodLabels);
  }

  /** The worker's Pods: the callers of a run's sandbox. */
  public SandboxCallers worker() {
    return new SandboxCallers(apiServerNamespace, workerPodLabels);
  }

  /** With the default callers (the api-server Pods of the default namespace). */
  public ContainerSettings(int firstPort, int lastPort, boolean sharedNetwork, String bindAddress) {
    this(firstPort, lastPort, sharedNetwork, bindAddress, null, null, null);
  }

  public static ContainerSettings defaults() {
    return fromEnvironment(Map.of());
  }

  public static ContainerSettings fromEnvironment(Map<String, String> env) {
    String range = env.getOrDefault(PORTS_VARIABLE, "");
    String[] bounds = (range.isBlank() ? "8080-8180" : range.strip()).split("-", 2);
    try {
      int first = Integer.parseInt(bounds[0].strip());
      int last = bounds.length == 1 ? first : Integer.parseInt(bounds[1].strip());
      return new ContainerSettings(
          first,
          last,
          Boolean.parseBoolean(
              env.getOrDefault("THREADLINE_CONTAINER_SHARED_NETWORK", "false").strip()),
          env.get("THREADLINE_CONTAINER_BIND_ADDRESS"),
          firstGiven(
              env,
              "THREADLINE_API_SERVER_NAMESPACE",
              "THREADLINE_LEASE_NAMESPACE",
              "POD_NAMESPACE"),
          labels(API_SERVER_POD_LABELS_VARIABLE, env.get(API_SERVER_POD_LABELS_VARIABLE)),
          labels(WORKER_POD_LABELS_VARIABLE, env.get(WORKER_POD_LABELS_VARIABLE)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          PORTS_VARIABLE + " must be a range like 8080-8180, got " + range);
    }
  }

  /**
   * For Pods that share the host's network: unique ports from the range, bound on that address
   * only.
   */
  public ContainerSettings sharingNetwork(int first, int last, String address) {
    return new ContainerSettings(
        first, last, true, address, apiServerNamespace, apiServerPodLabels, workerPodLabels);
  }

  private static String firstGiven(Map<String, String> env, String... variables) {
    for (String variable : variables) {
      String value = env.get(variable);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return null;
  }

  /**
   * {@code k=v,k=v}; a part without {@code =} or with an empty key is an error naming the variable.
   */
  static Map<String, String> labels(String variable, String list) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (list == null || list.isBlank()) {
      return labels;
    }
    for (String part : list.split(",")) {
      String[] pair = part.split("=", 2);
      if (pair.length != 2 || pair[0].isBlank()) {
        throw new IllegalArgumentException(variable + " must be labels like k=v,k=v, got: " + list);
      }
      labels.put(pair[0].strip(), pair[1].strip());
    }
    return labels;
  }

  public String range() {
    return firstPort + "-" + lastPort;
  }
}
