package dev.threadline.local.kubelet;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A container as the kubelet is about to run it on this host: {@code $(VAR)} references expanded
 * and container paths under a volume mount already translated to host paths.
 *
 * @param image the image the Pod asked for
 * @param command the container's {@code command} (the image's entrypoint when empty)
 * @param args the container's {@code args}
 * @param env the process environment (not the host's: a minimal base plus the Pod's variables)
 * @param workingDir the host directory the process starts in
 * @param namespace the Pod's namespace
 * @param podName the Pod's name
 * @param containerName the container's name
 */
public record LocalContainer(
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Path workingDir,
    String namespace,
    String podName,
    String containerName) {
  public LocalContainer {
    command = List.copyOf(command);
    args = List.copyOf(args);
    env = Map.copyOf(env);
  }
}
