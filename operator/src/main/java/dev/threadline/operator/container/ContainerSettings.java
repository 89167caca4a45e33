package dev.threadline.operator.container;

import java.util.Map;

/**
 * Where containers' file APIs listen. In a cluster every Pod has its own IP, so each container
 * can use the first port of the range ({@code sharedNetwork=false}). Where Pods share one network
 * (local mode runs them as host processes), the operator gives each container its own free port of
 * the range instead, and the runner binds only {@code bindAddress}.
 *
 * @param firstPort {@code THREADLINE_CONTAINER_PORTS}, default {@code 8080-8180}: the contract's range
 * @param lastPort the range's last port
 * @param sharedNetwork {@code THREADLINE_CONTAINER_SHARED_NETWORK}, default false: ports must be unique
 * @param bindAddress {@code THREADLINE_CONTAINER_BIND_ADDRESS}, default {@code 0.0.0.0}
 */
public record ContainerSettings(int firstPort, int lastPort, boolean sharedNetwork, String bindAddress) {
  public static final String PORTS_VARIABLE = "THREADLINE_CONTAINER_PORTS";

  public ContainerSettings {
    if (firstPort < 1 || lastPort > 65535 || firstPort > lastPort) {
      throw new IllegalArgumentException(PORTS_VARIABLE + " must be a range like 8080-8180, got " + firstPort + "-" + lastPort);
    }
    bindAddress = bindAddress == null || bindAddress.isBlank() ? "0.0.0.0" : bindAddress.strip();
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
      return new ContainerSettings(first, last,
          Boolean.parseBoolean(env.getOrDefault("THREADLINE_CONTAINER_SHARED_NETWORK", "false").strip()),
          env.get("THREADLINE_CONTAINER_BIND_ADDRESS"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PORTS_VARIABLE + " must be a range like 8080-8180, got " + range);
    }
  }

  /** For Pods that share the host's network: unique ports from the range, bound on that address only. */
  public ContainerSettings sharingNetwork(int first, int last, String address) {
    return new ContainerSettings(first, last, true, address);
  }

  public String range() {
    return firstPort + "-" + lastPort;
  }
}
