package dev.threadline.local.kubelet;

import java.util.ArrayList;
import java.util.List;

/** Ready-made {@link LocalProgram}s. */
public final class LocalPrograms {
  private LocalPrograms() {}

  /**
   * Runs the container's command and args as given on the host — for images like busybox or alpine
   * whose tools the host also has, and for generic shell steps. A container without a command
   * cannot run this way: the image's entrypoint is unknown here.
   */
  public static LocalProgram shell() {
    return container -> {
      if (container.command().isEmpty()) {
        throw new IllegalArgumentException(
            "image "
                + container.image()
                + " runs on the host shell in local mode and needs an explicit command");
      }
      List<String> command = new ArrayList<>(container.command());
      command.addAll(container.args());
      return command;
    };
  }

  /**
   * An image with a known ENTRYPOINT and CMD, with Kubernetes' rules: {@code command} replaces the
   * entrypoint (and drops the CMD), {@code args} replace the CMD.
   */
  public static LocalProgram image(List<String> entrypoint, List<String> cmd) {
    List<String> imageEntrypoint = List.copyOf(entrypoint);
    List<String> imageCmd = List.copyOf(cmd);
    return container -> {
      List<String> command =
          new ArrayList<>(container.command().isEmpty() ? imageEntrypoint : container.command());
      if (!container.args().isEmpty()) {
        command.addAll(container.args());
      } else if (container.command().isEmpty()) {
        command.addAll(imageCmd);
      }
      if (command.isEmpty()) {
        throw new IllegalArgumentException("image " + container.image() + " has no command to run");
      }
      return command;
    };
  }
}
