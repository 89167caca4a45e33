package dev.threadline.local.kubelet;

import dev.threadline.local.podlog.BufferedPodLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One container running as a host process. Its stdout and stderr are merged, as a container log is,
 * and copied to the container's {@link BufferedPodLog} and to a log file that outlives the process.
 */
final class ContainerProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerProcess.class);

  /** How long output may trail the exit: a background child can hold the pipe open forever. */
  private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);

  private final Process process;
  private final Instant startedAt;
  private final CountDownLatch outputCopied = new CountDownLatch(1);
  private final BufferedPodLog log;
  private final String described;

  private ContainerProcess(Process process, BufferedPodLog log, String described) {
    this.process = process;
    this.startedAt = Instant.now();
    this.log = log;
    this.described = described;
  }

  static ContainerProcess start(
      List<String> command,
      Map<String, String> env,
      Path workingDir,
      BufferedPodLog log,
      Path logFile,
      String described)
      throws IOException {
    Files.createDirectories(workingDir);
    Files.createDirectories(logFile.getParent());
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(workingDir.toFile()).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(env);
    // The log file first: if it cannot be opened, no process is left running without an owner.
    OutputStream file = Files.newOutputStream(logFile);
    ContainerProcess started;
    try {
      started = new ContainerProcess(builder.start(), log, described);
    } catch (IOException e) {
      file.close();
      throw e;
    }
    Thread.ofVirtual().name("log-" + described).start(() -> started.copyOutput(file));
    return started;
  }

  Instant startedAt() {
    return startedAt;
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Waits for the process to exit and its output to be in the log; returns the exit code. */
  int awaitExit() throws InterruptedException {
    int exitCode = process.waitFor();
    if (!outputCopied.await(OUTPUT_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
      LOG.debug(
          "{} exited but its output stays open (a background child?); the log ends here",
          described);
    }
    synchronized (log) {
      log.finish();
    }
    return exitCode;
  }

  /**
   * Stops the process and everything it started: SIGTERM, then after {@code grace} SIGKILL. A
   * container's processes die together, as they do when a container's PID namespace ends.
   */
  void terminate(Duration grace) {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroy);
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.info("{} did not end within {} ms of SIGTERM; killing it", described, grace.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.descendants().forEach(tree::add);
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  private void copyOutput(OutputStream file) {
    byte[] buffer = new byte[8192];
    try (InputStream output = process.getInputStream();
        file) {
      int read;
      while ((read = output.read(buffer)) != -1) {
        synchronized (log) {
          // After the drain window the log is closed; output that trails it is dropped.
          if (!log.finished()) {
            log.append(buffer, 0, read);
          }
        }
        file.write(buffer, 0, read);
        file.flush();
      }
    } catch (IOException e) {
      LOG.debug("{} output ended: {}", described, e.toString());
    } finally {
      outputCopied.countDown();
    }
  }
}
