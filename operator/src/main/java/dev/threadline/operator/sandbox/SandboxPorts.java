package dev.threadline.operator.sandbox;

import dev.threadline.operator.container.ContainerSettings;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Chooses the port of a sandbox's API (a container's or a run's). On a Pod network every container
 * may use the range's first port. On a shared network a port is free when no other container holds
 * it (as their statuses say, plus ports just handed out whose status write the cache has not seen
 * yet) and it can be bound here — the operator runs on the same host as the Pods then.
 */
public final class SandboxPorts {
  private final ContainerSettings settings;
  private final IntPredicate bindable;

  /** Container key → port handed out; dropped once the container is gone. */
  private final Map<String, Integer> handedOut = new HashMap<>();

  public SandboxPorts(ContainerSettings settings) {
    this(settings, port -> canBind(settings.bindAddress(), port));
  }

  SandboxPorts(ContainerSettings settings, IntPredicate bindable) {
    this.settings = settings;
    this.bindable = bindable;
  }

  /**
   * A port for {@code key} ({@code namespace/name}), given the ports other containers hold now.
   *
   * @param held container key → its recorded port, for every container that exists
   * @return empty when every port of the range is taken
   */
  public synchronized Optional<Integer> allocate(String key, Map<String, Integer> held) {
    if (!settings.sharedNetwork()) {
      return Optional.of(settings.firstPort());
    }
    handedOut.keySet().retainAll(held.keySet());
    Set<Integer> taken = new HashSet<>();
    held.forEach((other, port) -> {
      if (!other.equals(key) && port != null) {
        taken.add(port);
      }
    });
    handedOut.forEach((other, port) -> {
      if (!other.equals(key)) {
        taken.add(port);
      }
    });
    for (int port = settings.firstPort(); port <= settings.lastPort(); port++) {
      if (!taken.contains(port) && bindable.test(port)) {
        handedOut.put(key, port);
        return Optional.of(port);
      }
    }
    return Optional.empty();
  }

  /**
   * A port for the sandbox Pod {@code namespace/name}, given the sandbox Pods that exist (those of
   * them that name a port hold it).
   */
  public Optional<Integer> allocate(String namespace, String name, Stream<Pod> sandboxes) {
    Map<String, Integer> held =
        sandboxes
            .filter(pod -> SandboxPod.port(pod).isPresent())
            .collect(
                Collectors.toMap(
                    pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
                    pod -> SandboxPod.port(pod).orElseThrow(),
                    (a, b) -> a));
    return allocate(namespace + "/" + name, held);
  }

  private static boolean canBind(String address, int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }
}
