package dev.threadline.local.kubelet.sandbox;

import java.nio.file.Path;
import java.util.List;

/**
 * What one confined process may touch.
 *
 * @param writable the Pod's own folders and volumes (its workspace among them), bound read-write
 * @param readOnly volumes mounted read-only
 * @param network whether the process shares the host's network; without it, it has a loopback of
 *     its own and its ports are reached through the bridge
 * @param bridgeFolder where the bridge's Unix sockets live (inside {@code writable}); null without
 *     a bridge
 * @param ports the container's ports, bridged when there is no network
 * @param workingDir where the process starts
 * @param rootSize the bytes the sandbox's own root ({@code /} outside its folders) may hold
 * @param tmpSize the bytes its private {@code /tmp} may hold
 * @param commandCgroup the cgroup folder its program makes its commands' groups in, bound writable
 *     (its own {@code pids.max} read-only); null without one
 * @param hostCgroupNamespace whether the process keeps the host's cgroup namespace: needed when
 *     {@code commandCgroup} lies outside the group the process starts in
 */
public record SandboxSpec(
    List<Path> writable,
    List<Path> readOnly,
    boolean network,
    Path bridgeFolder,
    List<Integer> ports,
    Path workingDir,
    long rootSize,
    long tmpSize,
    Path commandCgroup,
    boolean hostCgroupNamespace) {
  public SandboxSpec {
    if (rootSize < 1 || tmpSize < 1) {
      throw new IllegalArgumentException("a sandbox's tmpfs sizes must be positive");
    }
    writable = List.copyOf(writable);
    readOnly = List.copyOf(readOnly);
    ports = List.copyOf(ports);
  }

  public SandboxSpec(
      List<Path> writable,
      List<Path> readOnly,
      boolean network,
      Path bridgeFolder,
      List<Integer> ports,
      Path workingDir,
      long rootSize,
      long tmpSize) {
    this(
        writable,
        readOnly,
        network,
        bridgeFolder,
        ports,
        workingDir,
        rootSize,
        tmpSize,
        null,
        false);
  }

  /** This sandbox with the cgroup folder its program's commands go in. */
  public SandboxSpec withCommandCgroup(Path folder, boolean hostNamespace) {
    return new SandboxSpec(
        writable,
        readOnly,
        network,
        bridgeFolder,
        ports,
        workingDir,
        rootSize,
        tmpSize,
        folder,
        hostNamespace);
  }

  /** Whether the process's ports must be bridged in from the host. */
  public boolean bridged() {
    return !network && !ports.isEmpty();
  }
}
