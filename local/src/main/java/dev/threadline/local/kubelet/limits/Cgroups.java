package dev.threadline.local.kubelet.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds by cgroups, v2 or v1: the kubelet makes a folder of its own below its process's cgroup and
 * one group per container in it, with the container's memory ({@code memory.max} / {@code
 * memory.limit_in_bytes}, swap included), CPU quota ({@code cpu.max} / {@code cpu.cfs_quota_us})
 * and process limit ({@code pids.max}). The container's first process joins its group before it
 * runs anything, so every process it starts is counted and, when it ends, killed with the group.
 * The memory limit counts the sandbox's tmpfs pages too. Files are bounded by {@code RLIMIT_FSIZE}
 * where {@code prlimit} is installed.
 */
final class Cgroups implements ResourceControl {
  private static final Logger LOG = LoggerFactory.getLogger(Cgroups.class);
  private static final long CPU_PERIOD_MICROS = 100_000;
  private static final Pattern OOM_KILLS = Pattern.compile("(?m)^oom_kill (\\d+)$");

  /**
   * Joins the cgroups named as arguments (their {@code cgroup.procs} files, up to {@code --}), then
   * becomes the command after them.
   */
  private static final String JOIN =
      "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"";

  /** The child group of a container's for the commands its program starts. */
  static final String COMMANDS = "commands";

  /** In v2, the child group a container's program starts in (beside {@value #COMMANDS}). */
  static final String PROGRAM = "program";

  enum Version {
    V1,
    V2
  }

  private final Version version;

  /** Controller → the kubelet's own folder in it (v2: the one folder, under the key "all"). */
  private final Map<String, Path> folders;

  private final Prlimit prlimit;

  private Cgroups(Version version, Map<String, Path> folders, Prlimit prlimit) {
    this.version = version;
    this.folders = Map.copyOf(folders);
    this.prlimit = prlimit;
  }

  /**
   * cgroup v2 at {@code mount}, if the kubelet can make a folder below its own cgroup with the
   * memory and pids controllers; {@code selfCgroup} is {@code /proc/self/cgroup}.
   */
  static Optional<Cgroups> v2(Path mount, List<String> selfCgroup, String name, Prlimit prlimit) {
    if (!Files.isRegularFile(mount.resolve("cgroup.controllers"))) {
      return Optional.empty();
    }
    Optional<String> own =
        selfCgroup.stream()
            .filter(line -> line.startsWith("0::"))
            .map(l -> l.substring(3))
            .findFirst();
    if (own.isEmpty()) {
      return Optional.empty();
    }
    Path base = under(mount, own.get());
    try {
      // Controllers reach a child only through its parent's subtree_control; a parent with
      // processes of its own refuses them (the "no internal processes" rule), then: no cgroups.
      enable(base, List.of("memory", "pids"));
      Path folder = Files.createDirectory(base.resolve(name));
      try {
        enable(folder, List.of("memory", "pids"));
        tryEnable(folder, "cpu");
        Cgroups cgroups = new Cgroups(Version.V2, Map.of("all", folder), prlimit);
        cgroups.probe();
        return Optional.of(cgroups);
      } catch (IOException | RuntimeException e) {
        remove(folder);
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("cgroup v2 below {} cannot be used: {}", base, e.toString());
      return Optional.empty();
    }
  }

  /**
   * cgroup v1 hierarchies under {@code mount}, if the kubelet can make folders in pids and memory.
   */
  static Optional<Cgroups> v1(Path mount, List<String> selfCgroup, String name, Prlimit prlimit) {
    Map<String, Path> folders = new LinkedHashMap<>();
    try {
      for (String controller : List.of("pids", "memory", "cpu")) {
        Path hierarchy = mount.resolve(controller);
        if (!Files.isRegularFile(hierarchy.resolve("cgroup.procs"))) {
          if (controller.equals("cpu")) {
            continue; // CPU quota where the host has it; memory and processes are the musts
          }
          throw new IOException("no " + controller + " hierarchy at " + hierarchy);
        }
        Path base = under(hierarchy, ownPathV1(selfCgroup, controller).orElse("/"));
        folders.put(controller, Files.createDirectory(base.resolve(name)));
      }
      Cgroups cgroups = new Cgroups(Version.V1, folders, prlimit);
      cgroups.probe();
      return Optional.of(cgroups);
    } catch (IOException | RuntimeException e) {
      folders.values().forEach(Cgroups::remove);
      LOG.debug("cgroup v1 under {} cannot be used: {}", mount, e.toString());
      return Optional.empty();
    }
  }

  @Override
  public String describe() {
    return "Sandboxes are bounded by cgroup "
        + (version == Version.V2 ? "v2" : "v1")
        + " (memory, "
        + (version == Version.V1 && !folders.containsKey("cpu") ? "" : "CPU, ")
        + "processes) in "
        + String.join(", ", folders.values().stream().map(Path::toString).toList())
        + (prlimit == null ? "" : ", file size by rlimit");
  }

  @Override
  public Bounds bound(String name, SandboxLimits limits) throws IOException {
    Group group = new Group(name);
    try {
      group.limit(limits);
    } catch (IOException | RuntimeException e) {
      group.close();
      throw e;
    }
    return group;
  }

  @Override
  public void close() {
    folders.values().forEach(Cgroups::remove);
  }

  /** A trial group: made, limited, removed. */
  private void probe() throws IOException {
    try (Group group = new Group("probe")) {
      group.limit(new SandboxLimits(64L << 20, 100, 0, 16, 0));
    }
  }

  /**
   * One container's cgroup (one folder per controller in v1), with a child {@value #COMMANDS} for
   * the commands its program starts. In v2 a group with processes can have no limited children, so
   * the program starts in a sibling of that child, {@value #PROGRAM}.
   */
  private final class Group implements Bounds {
    private final Map<String, Path> dirs = new LinkedHashMap<>();
    private Path commands;
    private long ephemeral;

    Group(String name) throws IOException {
      for (Map.Entry<String, Path> folder : folders.entrySet()) {
        Path dir = folder.getValue().resolve(name);
        if (Files.isDirectory(dir)) {
          remove(dir); // left over by a container of the same name that ended badly
        }
        dirs.put(folder.getKey(), Files.createDirectory(dir));
      }
    }

    void limit(SandboxLimits limits) throws IOException {
      ephemeral = limits.ephemeralBytes();
      if (version == Version.V2) {
        Path dir = dirs.get("all");
        write(dir.resolve("pids.max"), limits.pids());
        if (limits.memoryBytes() > 0) {
          write(dir.resolve("memory.max"), limits.memoryBytes());
          writeIfPresent(dir.resolve("memory.swap.max"), "0");
        }
        if (limits.cpuMillis() > 0) {
          writeIfPresent(
              dir.resolve("cpu.max"), quotaMicros(limits.cpuMillis()) + " " + CPU_PERIOD_MICROS);
        }
        enable(dir, List.of("pids"));
        Files.createDirectory(dir.resolve(PROGRAM));
        commands = Files.createDirectory(dir.resolve(COMMANDS));
        write(commands.resolve("pids.max"), limits.commandPids());
        return;
      }
      Path pids = dirs.get("pids");
      write(pids.resolve("pids.max"), limits.pids());
      commands = Files.createDirectory(pids.resolve(COMMANDS));
      write(commands.resolve("pids.max"), limits.commandPids());
      if (limits.memoryBytes() > 0) {
        Path memory = dirs.get("memory");
        write(memory.resolve("memory.limit_in_bytes"), limits.memoryBytes());
        // memory + swap, no more than memory: swap must not stretch the limit
        writeIfPresent(
            memory.resolve("memory.memsw.limit_in_bytes"), Long.toString(limits.memoryBytes()));
      }
      Path cpu = dirs.get("cpu");
      if (limits.cpuMillis() > 0 && cpu != null) {
        write(cpu.resolve("cpu.cfs_period_us"), CPU_PERIOD_MICROS);
        write(cpu.resolve("cpu.cfs_quota_us"), quotaMicros(limits.cpuMillis()));
      }
    }

    @Override
    public List<String> wrap(List<String> command) {
      List<String> inner =
          prlimit == null ? command : prlimit.wrap(Map.of("fsize", ephemeral), command);
      List<String> line = new ArrayList<>(List.of("/bin/sh", "-c", JOIN, "sh"));
      dirs.values()
          .forEach(dir ->
              line.add(
                  (version == Version.V2 ? dir.resolve(PROGRAM) : dir)
                      .resolve("cgroup.procs")
                      .toString()));
      line.add("--");
      line.addAll(inner);
      return line;
    }

    @Override
    public Optional<CommandGroup> commandGroup() {
      return Optional.ofNullable(commands)
          .map(folder -> new CommandGroup(folder, version == Version.V2));
    }

    @Override
    public boolean outOfMemory() {
      Path events =
          version == Version.V2
              ? dirs.get("all").resolve("memory.events")
              : dirs.get("memory").resolve("memory.oom_control");
      try {
        Matcher kills = OOM_KILLS.matcher(Files.readString(events));
        return kills.find() && Long.parseLong(kills.group(1)) > 0;
      } catch (IOException | RuntimeException unreadable) {
        return false;
      }
    }

    @Override
    public void close() {
      dirs.values().forEach(Cgroups::remove);
    }
  }

  private static long quotaMicros(long cpuMillis) {
    long quota = cpuMillis * (CPU_PERIOD_MICROS / 1000);
    return quota < 1000 ? 1000 : quota; // the kernel's smallest quota is 1 ms
  }

  /** Kills every process left in {@code dir}, then removes it (a group must be empty to go). */
  static void remove(Path dir) {
    for (int attempt = 0; attempt < 50 && Files.isDirectory(dir); attempt++) {
      try {
        for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
          if (!pid.isBlank()) {
            ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
        try (var children = Files.list(dir)) {
          for (Path child : children.filter(Files::isDirectory).toList()) {
            remove(child);
          }
        }
        Files.delete(dir);
        return;
      } catch (IOException | RuntimeException busy) {
        // processes still exiting: try again shortly
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    if (Files.isDirectory(dir)) {
      LOG.warn("cgroup {} could not be removed", dir);
    }
  }

  private static Optional<String> ownPathV1(List<String> selfCgroup, String controller) {
    for (String line : selfCgroup) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains(controller)) {
        return Optional.of(parts[2]);
      }
    }
    return Optional.empty();
  }

  /**
   * The folder of cgroup {@code path} in a hierarchy mounted at {@code mount}; the mount itself
   * when the path is not visible there (a container sees its own cgroup as the root).
   */
  private static Path under(Path mount, String path) {
    Path folder = mount.resolve(path.replaceFirst("^/+", ""));
    return Files.isDirectory(folder) ? folder : mount;
  }

  private static void enable(Path dir, List<String> controllers) throws IOException {
    String enabled = Files.readString(dir.resolve("cgroup.subtree_control"));
    for (String controller : controllers) {
      if (!List.of(enabled.strip().split("\\s+")).contains(controller)) {
        Files.writeString(dir.resolve("cgroup.subtree_control"), "+" + controller);
      }
    }
  }

  private static void tryEnable(Path dir, String controller) {
    try {
      enable(dir, List.of(controller));
    } catch (IOException | RuntimeException absent) {
      LOG.debug("cgroup controller {} not available in {}", controller, dir);
    }
  }

  private static void write(Path file, long value) throws IOException {
    Files.writeString(file, Long.toString(value));
  }

  private static void writeIfPresent(Path file, String value) throws IOException {
    if (Files.exists(file)) {
      Files.writeString(file, value);
    }
  }
}
