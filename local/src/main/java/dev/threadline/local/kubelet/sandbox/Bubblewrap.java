package dev.threadline.local.kubelet.sandbox;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code bwrap} command line that runs a process in a sandbox: a new root with the system's
 * programs and libraries read-only, the runtime files read-only, the Pod's own folders writable and
 * nothing else of the host — not the data folder, not other Pods, not the launcher's files; its own
 * {@code /proc}, {@code /dev} and {@code /tmp}; its own PID namespace and session; no network when
 * the Pod may not reach out; the root and {@code /tmp} are tmpfs of bounded size. The environment
 * is the one the process is started with (the Pod's).
 */
public final class Bubblewrap {
  /** System folders every program needs, read-only (symbolic links, as on merged-/usr, kept). */
  private static final List<String> SYSTEM =
      List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");

  /** The parts of /etc programs read: users, name resolution, certificates, the linker, time. */
  private static final List<String> ETC =
      List.of(
          "/etc/passwd",
          "/etc/group",
          "/etc/hosts",
          "/etc/resolv.conf",
          "/etc/nsswitch.conf",
          "/etc/host.conf",
          "/etc/ssl",
          "/etc/ca-certificates",
          "/etc/pki",
          "/etc/ld.so.cache",
          "/etc/ld.so.conf",
          "/etc/ld.so.conf.d",
          "/etc/localtime",
          "/etc/alternatives",
          "/etc/mime.types");

  private final Confinement confinement;

  public Bubblewrap(Confinement confinement) {
    if (!confinement.available()) {
      throw new IllegalArgumentException("bubblewrap is not installed");
    }
    this.confinement = confinement;
  }

  /** {@code command} wrapped: bwrap, its options, then the command (behind the port bridge). */
  public List<String> wrap(SandboxSpec sandbox, List<String> command) {
    List<String> line = new ArrayList<>();
    line.add(confinement.bwrap().toString());
    line.addAll(
        List.of(
            "--die-with-parent",
            "--new-session",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            // A launcher running as root would otherwise hand root's capabilities to agent code.
            "--cap-drop",
            "ALL"));
    if (!sandbox.hostCgroupNamespace()) {
      line.add("--unshare-cgroup-try");
    }
    if (!sandbox.network()) {
      line.add("--unshare-net");
    }
    // The new root and /tmp are memory: sized, or they could take half the host's memory.
    line.addAll(List.of("--size", Long.toString(sandbox.rootSize()), "--tmpfs", "/"));
    for (String folder : SYSTEM) {
      system(line, Path.of(folder));
    }
    for (String file : ETC) {
      bind(line, "--ro-bind-try", Path.of(file));
    }
    javaConfiguration(line);
    line.addAll(
        List.of(
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            Long.toString(sandbox.tmpSize()),
            "--tmpfs",
            "/tmp"));
    confinement.runtimeFiles().forEach(file -> bind(line, "--ro-bind-try", file));
    // Writable first: a read-only volume inside a writable folder stays read-only.
    sandbox.writable().forEach(folder -> bind(line, "--bind", folder));
    sandbox.readOnly().forEach(volume -> bind(line, "--ro-bind", volume));
    if (sandbox.commandCgroup() != null) {
      // Its commands' groups are made in it; its own limit is the kubelet's to set.
      bind(line, "--bind", sandbox.commandCgroup());
      bind(line, "--ro-bind", sandbox.commandCgroup().resolve("pids.max"));
    }
    line.addAll(List.of("--chdir", sandbox.workingDir().toString(), "--"));
    if (sandbox.bridged()) {
      line.addAll(confinement.bridgeCommand());
      line.add(sandbox.bridgeFolder().toString());
      sandbox.ports().forEach(port -> line.add(Integer.toString(port)));
      line.add("--");
    }
    line.addAll(command);
    return line;
  }

  private static void system(List<String> line, Path folder) {
    if (Files.isSymbolicLink(folder)) {
      try {
        line.addAll(
            List.of("--symlink", Files.readSymbolicLink(folder).toString(), folder.toString()));
      } catch (IOException e) {
        // unreadable link: left out, as a missing folder is
      }
    } else if (Files.isDirectory(folder)) {
      bind(line, "--ro-bind", folder);
    }
  }

  /** Distribution JDKs keep their configuration under /etc/java-*. */
  private static void javaConfiguration(List<String> line) {
    try (DirectoryStream<Path> java = Files.newDirectoryStream(Path.of("/etc"), "java*")) {
      java.forEach(folder -> bind(line, "--ro-bind-try", folder));
    } catch (IOException e) {
      // no /etc/java*: nothing to bind
    }
  }

  private static void bind(List<String> line, String option, Path path) {
    String host = path.toAbsolutePath().normalize().toString();
    line.addAll(List.of(option, host, host));
  }
}
