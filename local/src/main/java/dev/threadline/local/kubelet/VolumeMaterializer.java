package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gives each volume of a Pod a host folder. Processes cannot bind-mount, so a "mount" is a folder
 * whose container path the {@link ContainerPathTranslator} rewrites: emptyDir → a fresh folder of
 * the Pod; configMap/secret → a fresh folder with one file per key; persistentVolumeClaim → the
 * claim's folder, which outlives the Pod (it is the thread's workspace); hostPath → that host path.
 */
final class VolumeMaterializer {
  static final String FAILED_MOUNT = "FailedMount";
  static final String UNSUPPORTED = "VolumeNotSupportedLocally";
  private static final int DEFAULT_MODE = 0644;

  private final PodDirectories directories;

  VolumeMaterializer(PodDirectories directories) {
    this.directories = directories;
  }

  /** Volume name → host folder, for every volume of the Pod. */
  Map<String, Path> materialize(Pod pod, PodConfigData config) throws PodStartFailure {
    String namespace = pod.getMetadata().getNamespace();
    String podName = pod.getMetadata().getName();
    Path volumesRoot = directories.volumes(namespace, podName);
    // A fresh start for the Pod's own volumes: a Pod that reuses a name must not see its
    // predecessor's files.
    PodDirectories.deleteRecursively(volumesRoot);
    Map<String, Path> hostPaths = new LinkedHashMap<>();
    List<Volume> volumes =
        pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    for (Volume volume : volumes) {
      try {
        hostPaths.put(volume.getName(), materialize(volume, namespace, podName, config));
      } catch (IOException e) {
        throw new PodStartFailure(
            FAILED_MOUNT, "MountVolume.SetUp failed for volume \"" + volume.getName() + "\": " + e);
      }
    }
    return hostPaths;
  }

  private Path materialize(Volume volume, String namespace, String podName, PodConfigData config)
      throws IOException, PodStartFailure {
    Path own = directories.volume(namespace, podName, volume.getName());
    if (volume.getEmptyDir() != null) {
      return Files.createDirectories(own);
    }
    if (volume.getPersistentVolumeClaim() != null) {
      return Files.createDirectories(
          directories.claim(namespace, volume.getPersistentVolumeClaim().getClaimName()));
    }
    if (volume.getHostPath() != null) {
      return Path.of(volume.getHostPath().getPath());
    }
    if (volume.getConfigMap() != null) {
      var source = volume.getConfigMap();
      Optional<Map<String, byte[]>> data = config.configMap(source.getName());
      writeKeys(
          volume.getName(),
          "configmap",
          source.getName(),
          data,
          source.getItems(),
          Boolean.TRUE.equals(source.getOptional()),
          source.getDefaultMode(),
          own);
      return own;
    }
    if (volume.getSecret() != null) {
      var source = volume.getSecret();
      Optional<Map<String, byte[]>> data = config.secret(source.getSecretName());
      writeKeys(
          volume.getName(),
          "secret",
          source.getSecretName(),
          data,
          source.getItems(),
          Boolean.TRUE.equals(source.getOptional()),
          source.getDefaultMode(),
          own);
      return own;
    }
    throw new PodStartFailure(
        UNSUPPORTED,
        "volume \""
            + volume.getName()
            + "\" is of a type local mode cannot provide;"
            + " supported: emptyDir, configMap, secret, persistentVolumeClaim, hostPath");
  }

  private static void writeKeys(
      String volume,
      String kind,
      String sourceName,
      Optional<Map<String, byte[]>> data,
      List<KeyToPath> items,
      boolean optional,
      Integer defaultMode,
      Path target)
      throws IOException, PodStartFailure {
    Files.createDirectories(target);
    if (data.isEmpty()) {
      if (optional) {
        return;
      }
      throw new PodStartFailure(
          FAILED_MOUNT,
          "MountVolume.SetUp failed for volume \""
              + volume
              + "\": "
              + kind
              + " \""
              + sourceName
              + "\" not found");
    }
    int mode = defaultMode == null ? DEFAULT_MODE : defaultMode;
    if (items == null || items.isEmpty()) {
      for (var entry : data.get().entrySet()) {
        write(target, entry.getKey(), entry.getValue(), mode);
      }
      return;
    }
    for (KeyToPath item : items) {
      byte[] value = data.get().get(item.getKey());
      if (value == null) {
        if (optional) {
          continue;
        }
        throw new PodStartFailure(
            FAILED_MOUNT,
            "MountVolume.SetUp failed for volume \""
                + volume
                + "\": "
                + kind
                + " \""
                + sourceName
                + "\" has no key \""
                + item.getKey()
                + "\"");
      }
      write(target, item.getPath(), value, item.getMode() == null ? mode : item.getMode());
    }
  }

  private static void write(Path target, String relativePath, byte[] content, int mode)
      throws IOException, PodStartFailure {
    Path file = target.resolve(relativePath).normalize();
    if (Path.of(relativePath).isAbsolute() || !file.startsWith(target)) {
      throw new PodStartFailure(
          FAILED_MOUNT, "volume item path \"" + relativePath + "\" must stay inside the volume");
    }
    Files.createDirectories(file.getParent());
    Files.write(file, content);
    setMode(file, mode);
  }

  /** Best effort: the mode is honoured where the file system has POSIX permissions. */
  private static void setMode(Path file, int mode) throws IOException {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_READ
    };
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << i)) != 0) {
        permissions.add(bits[i]);
      }
    }
    // The kubelet (the file's owner) must still be able to replace and delete what it wrote.
    permissions.add(PosixFilePermission.OWNER_READ);
    permissions.add(PosixFilePermission.OWNER_WRITE);
    try {
      Files.setPosixFilePermissions(file, permissions);
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: modes cannot be expressed
    }
  }
}
