package dev.threadline.local.kubelet.limits;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * How this host holds a sandbox to its {@link SandboxLimits}: cgroups where the kubelet may make
 * them, rlimits where it may not, or nothing at all.
 */
public interface ResourceControl extends AutoCloseable {
  /** One line for the start-up log: what bounds sandboxes here. */
  String describe();

  /**
   * The bounds of one container, made before it starts; {@code name} is unique among the kubelet's
   * running containers.
   */
  Bounds bound(String name, SandboxLimits limits) throws IOException;

  /** Removes what the kubelet made for itself (its cgroup folder). */
  @Override
  void close();

  /** One container's bounds: they wrap its command and go with it. */
  interface Bounds extends AutoCloseable {
    /** {@code command} started inside the bounds. */
    List<String> wrap(List<String> command);

    /** Where the container's program puts its commands, if the bounds give it a group for them. */
    default Optional<CommandGroup> commandGroup() {
      return Optional.empty();
    }

    /** Whether the kernel killed a process of the container because it hit its memory limit. */
    boolean outOfMemory();

    /** Kills whatever the container left running in its bounds, and removes them. */
    @Override
    void close();
  }

  /** No bounds at all (the host offers neither cgroups nor {@code prlimit}). */
  static ResourceControl none(String why) {
    return new ResourceControl() {
      @Override
      public String describe() {
        return "Sandboxes are NOT bounded in memory, processes or CPU: " + why;
      }

      @Override
      public Bounds bound(String name, SandboxLimits limits) {
        return new Bounds() {
          @Override
          public List<String> wrap(List<String> command) {
            return command;
          }

          @Override
          public boolean outOfMemory() {
            return false;
          }

          @Override
          public void close() {}
        };
      }

      @Override
      public void close() {}
    };
  }
}
