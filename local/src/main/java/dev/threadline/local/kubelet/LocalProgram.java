package dev.threadline.local.kubelet;

import java.util.List;

/** How a container of one kind of image runs as a host process. */
@FunctionalInterface
public interface LocalProgram {
  /**
   * The host command for a container; command/args/env/workingDir already have container paths
   * translated to host paths. Throw {@link IllegalArgumentException} with a clear message when the
   * container cannot run here: the container then fails with reason {@code CreateContainerError}.
   */
  List<String> command(LocalContainer container);
}
