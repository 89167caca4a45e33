package dev.threadline.local.kubelet.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses how sandboxes are bounded on this host: {@value #VARIABLE} is {@code auto} (the default:
 * cgroup v2, else cgroup v1, else rlimits, else nothing), {@code rlimits} or {@code none}.
 */
public final class ResourceControls {
  public static final String VARIABLE = "THREADLINE_LOCAL_SANDBOX_LIMITS";

  private static final Path CGROUP_MOUNT = Path.of("/sys/fs/cgroup");
  private static final Path PROC = Path.of("/proc");

  private ResourceControls() {}

  public static ResourceControl detect(Map<String, String> env) {
    String mode = env.getOrDefault(VARIABLE, "auto").strip().toLowerCase(Locale.ROOT);
    Optional<Prlimit> prlimit =
        onPath("prlimit", env.getOrDefault("PATH", "/usr/bin:/bin")).map(Prlimit::new);
    switch (mode) {
      case "", "auto" -> {
        List<String> self = selfCgroup();
        String name = "threadline-" + HexFormat.of().formatHex(SecureRandom.getSeed(4));
        Optional<Cgroups> cgroups =
            Cgroups.v2(CGROUP_MOUNT, self, name, prlimit.orElse(null))
                .or(() -> Cgroups.v1(CGROUP_MOUNT, self, name, prlimit.orElse(null)));
        if (cgroups.isPresent()) {
          return cgroups.get();
        }
        return rlimits(prlimit, "no cgroup can be made here and prlimit is not installed");
      }
      case "rlimits" -> {
        return rlimits(prlimit, "prlimit (util-linux) is not installed");
      }
      case "none" -> {
        return ResourceControl.none(VARIABLE + "=none");
      }
      default ->
          throw new IllegalArgumentException(
              VARIABLE + " must be auto, rlimits or none, got: " + env.get(VARIABLE));
    }
  }

  private static ResourceControl rlimits(Optional<Prlimit> prlimit, String otherwise) {
    if (prlimit.isEmpty()) {
      return ResourceControl.none(otherwise);
    }
    long uid;
    try {
      uid = ((Number) Files.getAttribute(PROC.resolve("self"), "unix:uid")).longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return ResourceControl.none("this process's user cannot be read from /proc (" + e + ")");
    }
    return new Rlimits(prlimit.get(), uid, PROC);
  }

  private static List<String> selfCgroup() {
    try {
      return Files.readAllLines(PROC.resolve("self/cgroup"));
    } catch (IOException e) {
      return List.of();
    }
  }

  private static Optional<Path> onPath(String program, String path) {
    for (String folder : path.split(":")) {
      if (!folder.isBlank() && Files.isExecutable(Path.of(folder, program))) {
        return Optional.of(Path.of(folder, program));
      }
    }
    return Optional.empty();
  }
}
