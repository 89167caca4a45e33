package dev.threadline.local.kubelet.limits;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds by rlimits, where the kubelet may not make cgroups: each process's address space ({@code
 * RLIMIT_AS}), total CPU time ({@code RLIMIT_CPU}), file size ({@code RLIMIT_FSIZE}), and the
 * processes of the user ({@code RLIMIT_NPROC}).
 *
 * <p>These are weaker than cgroups, and the log line says so. {@code RLIMIT_AS} bounds virtual, not
 * resident memory, and a JVM reserves far more than it uses: the limit is the container's memory
 * limit plus {@link #RESERVATION_ALLOWANCE}. {@code RLIMIT_NPROC} counts every process and thread
 * of the real user, and a sandbox's user namespace maps to the launcher's own user: the limit is
 * what that user runs already plus the container's allowance, so it bounds a fork bomb but is
 * shared with the service itself; the kernel does not apply it to root at all.
 */
final class Rlimits implements ResourceControl {
  /** What a JVM (the runner) reserves beyond its heap: class space, code cache, stacks. */
  static final long RESERVATION_ALLOWANCE = 2L << 30;

  private final Prlimit prlimit;
  private final long uid;
  private final Path proc;

  Rlimits(Prlimit prlimit, long uid, Path proc) {
    this.prlimit = prlimit;
    this.uid = uid;
    this.proc = proc;
  }

  @Override
  public String describe() {
    return "Sandboxes are bounded by rlimits through "
        + prlimit.program()
        + " (no cgroup can be made here): address space (memory limit + 2 GiB), CPU time,"
        + " file size, and processes per user"
        + (uid == 0 ? " — which the kernel does not apply to root, as this process runs" : "");
  }

  @Override
  public Bounds bound(String name, SandboxLimits limits) throws IOException {
    Map<String, Long> values = new LinkedHashMap<>();
    values.put(
        "as",
        limits.memoryBytes() == 0 ? 0 : saturatedSum(limits.memoryBytes(), RESERVATION_ALLOWANCE));
    values.put("cpu", limits.cpuSeconds());
    values.put("fsize", limits.ephemeralBytes());
    values.put("nproc", saturatedSum(tasksOfUser(), limits.pids()));
    return new Bounds() {
      @Override
      public List<String> wrap(List<String> command) {
        return prlimit.wrap(values, command);
      }

      @Override
      public boolean outOfMemory() {
        return false; // an rlimit fails the allocation; nothing is killed for it
      }

      @Override
      public void close() {}
    };
  }

  /** The processes and threads the user runs now (what {@code RLIMIT_NPROC} counts). */
  private long tasksOfUser() throws IOException {
    long tasks = 0;
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, "[0-9]*")) {
      for (Path process : processes) {
        try {
          if (((Number) Files.getAttribute(process, "unix:uid")).longValue() == uid) {
            try (DirectoryStream<Path> threads =
                Files.newDirectoryStream(process.resolve("task"))) {
              for (Path ignored : threads) {
                tasks++;
              }
            }
          }
        } catch (IOException ended) {
          // the process ended while being counted
        }
      }
    }
    return tasks;
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  @Override
  public void close() {}
}
