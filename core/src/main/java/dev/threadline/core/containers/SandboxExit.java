package dev.threadline.core.containers;

/** Exit codes of a sandbox's runner ({@code runner serve}) that whoever made its Pod acts on. */
public final class SandboxExit {
  /**
   * Its port stayed taken by another program past the runner's retries (Linux's {@code EADDRINUSE},
   * 98): where Pods share the host's network, the sandbox is made again on another port rather than
   * failing its run.
   */
  public static final int PORT_TAKEN = 98;

  private SandboxExit() {}
}
