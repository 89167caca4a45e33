package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for mounts: a process sees the host's file system, so a container path under a volume
 * mount is rewritten to the volume's host folder. A value is rewritten when it equals a mount path
 * or starts with {@code mountPath + "/"}; the longest mount path wins. Values that merely contain a
 * path (such as {@code sh -c 'cat /etc/x'}) are left alone: only whole values are paths for sure.
 */
final class ContainerPathTranslator {
  static final String CONFIG_ERROR = "CreateContainerConfigError";

  /** Container mount path → host folder, longest mount path first. */
  private final Map<String, Path> mounts;

  private ContainerPathTranslator(Map<String, Path> mounts) {
    this.mounts = mounts;
  }

  static ContainerPathTranslator forContainer(
      Container container, Map<String, Path> volumeHostPaths) throws PodStartFailure {
    List<VolumeMount> volumeMounts =
        container.getVolumeMounts() == null ? List.of() : container.getVolumeMounts();
    Map<String, Path> mounts = new LinkedHashMap<>();
    List<VolumeMount> longestFirst =
        volumeMounts.stream()
            .sorted(
                Comparator.comparingInt(
                        (VolumeMount mount) -> normalize(mount.getMountPath()).length())
                    .reversed())
            .toList();
    for (VolumeMount mount : longestFirst) {
      Path volume = volumeHostPaths.get(mount.getName());
      if (volume == null) {
        throw new PodStartFailure(
            CONFIG_ERROR,
            "container \""
                + container.getName()
                + "\" mounts volume \""
                + mount.getName()
                + "\", which the Pod does not define");
      }
      Path host =
          mount.getSubPath() == null || mount.getSubPath().isEmpty()
              ? volume
              : volume.resolve(mount.getSubPath()).normalize();
      if (!host.startsWith(volume)) {
        throw new PodStartFailure(
            CONFIG_ERROR, "subPath \"" + mount.getSubPath() + "\" must stay inside its volume");
      }
      mounts.put(normalize(mount.getMountPath()), host);
    }
    return new ContainerPathTranslator(mounts);
  }

  String translate(String value) {
    if (value == null) {
      return null;
    }
    for (var mount : mounts.entrySet()) {
      String mountPath = mount.getKey();
      if (value.equals(mountPath)) {
        return mount.getValue().toString();
      }
      if (value.startsWith(mountPath + "/")) {
        return mount.getValue() + value.substring(mountPath.length());
      }
    }
    return value;
  }

  List<String> translate(List<String> values) {
    return values.stream().map(this::translate).toList();
  }

  Map<String, String> translateValues(Map<String, String> env) {
    Map<String, String> translated = new LinkedHashMap<>();
    env.forEach((name, value) -> translated.put(name, translate(value)));
    return translated;
  }

  /**
   * The host folder for a container working directory: under a mount it is the mount's folder;
   * elsewhere it lives in the Pod's stand-in for the container's file system ({@code rootfs}).
   */
  Path workingDirectory(String containerWorkingDir, Path rootfs, Path fallback) {
    if (containerWorkingDir == null || containerWorkingDir.isBlank()) {
      return fallback;
    }
    String translated = translate(normalize(containerWorkingDir));
    if (!translated.equals(normalize(containerWorkingDir))) {
      return Path.of(translated);
    }
    Path inRootfs = rootfs.resolve(translated.replaceFirst("^/+", "")).normalize();
    return inRootfs.startsWith(rootfs) ? inRootfs : rootfs;
  }

  private static String normalize(String mountPath) {
    String normalized = mountPath;
    while (normalized.length() > 1 && normalized.endsWith("/")) {
      normalized = normalized.substring(0, normalized.length() - 1);
    }
    return normalized;
  }
}
