package dev.threadline.local.kubeapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real kubectl against a kubeconfig, with its own discovery cache. */
final class Kubectl {
  static final Path BINARY = Path.of("/usr/bin/kubectl");

  private final Path kubeconfig;
  private final Path cacheDir;

  Kubectl(Path kubeconfig, Path cacheDir) {
    this.kubeconfig = kubeconfig;
    this.cacheDir = cacheDir;
  }

  record Result(int exitCode, String out, String err) {}

  Result run(String... args) {
    Path errFile = cacheDir.resolve("last-stderr.txt");
    Process process = start(ProcessBuilder.Redirect.to(errFile.toFile()), args);
    try {
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("kubectl did not finish: " + List.of(args));
      }
      return new Result(
          process.exitValue(), new String(out, StandardCharsets.UTF_8), Files.readString(errFile));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts kubectl and leaves it running (for -f and -w); stderr goes to a file. */
  Process start(String... args) {
    return start(ProcessBuilder.Redirect.appendTo(cacheDir.resolve("stderr.txt").toFile()), args);
  }

  private Process start(ProcessBuilder.Redirect stderr, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                BINARY.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                cacheDir.toString()));
    command.addAll(List.of(args));
    try {
      Files.createDirectories(cacheDir);
      return new ProcessBuilder(command).redirectError(stderr).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads what a running kubectl prints, into a buffer a test can poll. */
  static StringBuffer collect(InputStream in) {
    StringBuffer buffer = new StringBuffer();
    Thread reader =
        new Thread(
            () -> {
              byte[] chunk = new byte[4096];
              try {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                  buffer.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
                }
              } catch (IOException e) {
                // the process ended
              }
            },
            "kubectl-output");
    reader.setDaemon(true);
    reader.start();
    return buffer;
  }
}
