package dev.threadline.local.kubelet.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the kubelet confines sandbox processes: with bubblewrap when it is installed, or not at all.
 *
 * @param bwrap the {@code bwrap} program; null when it is missing (processes then run unconfined)
 * @param runtimeFiles host files and folders a confined process may read besides the system's own
 *     ({@code /usr}, {@code /etc} basics): the JVM and the class path its programs run from
 * @param bridgeCommand how to start {@link PortBridge} inside a sandbox (a JVM command up to and
 *     including the main class)
 */
public record Confinement(Path bwrap, List<Path> runtimeFiles, List<String> bridgeCommand) {
  /** The setting that accepts running agent code unconfined where bubblewrap is missing. */
  public static final String ALLOW_UNCONFINED = "THREADLINE_ALLOW_UNCONFINED";

  public Confinement {
    runtimeFiles = List.copyOf(runtimeFiles);
    bridgeCommand = List.copyOf(bridgeCommand);
  }

  /** Processes run as plain host processes (tests of the kubelet itself, or no bubblewrap). */
  public static Confinement none() {
    return new Confinement(null, List.of(), List.of());
  }

  /**
   * Bubblewrap from the {@code PATH} when it is there, with this JVM and its class path as the
   * runtime files; otherwise {@link #none()}.
   */
  public static Confinement detect(Map<String, String> env) {
    Optional<Path> bwrap = onPath("bwrap", env.getOrDefault("PATH", "/usr/bin:/bin"));
    if (bwrap.isEmpty()) {
      return none();
    }
    Path javaHome = Path.of(System.getProperty("java.home"));
    String classPath = System.getProperty("java.class.path");
    List<Path> files = new ArrayList<>();
    files.add(javaHome);
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      if (!entry.isBlank()) {
        files.add(Path.of(entry).toAbsolutePath());
      }
    }
    List<String> bridge =
        List.of(
            javaHome.resolve("bin/java").toString(),
            "-Xmx32m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xshare:auto",
            "-cp",
            classPath,
            PortBridge.class.getName());
    return new Confinement(bwrap.get(), files, bridge);
  }

  public boolean available() {
    return bwrap != null;
  }

  /**
   * Why bubblewrap cannot run here (e.g. user namespaces are disabled), or empty when a trial
   * sandbox starts and ends well.
   */
  public Optional<String> trial() {
    try {
      Process process =
          new ProcessBuilder(
                  bwrap.toString(), "--ro-bind", "/", "/", "--unshare-pid", "--", "/bin/true")
              .redirectErrorStream(true)
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.of("a trial sandbox did not end within 10 s");
      }
      String output = new String(process.getInputStream().readAllBytes()).strip();
      return process.exitValue() == 0
          ? Optional.empty()
          : Optional.of(
              "a trial sandbox failed (exit code " + process.exitValue() + "): " + output);
    } catch (java.io.IOException e) {
      return Optional.of("cannot start " + bwrap + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while trying " + bwrap);
    }
  }

  private static Optional<Path> onPath(String program, String path) {
    for (String folder : path.split(":")) {
      if (folder.isBlank()) {
        continue;
      }
      Path candidate = Path.of(folder, program);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
