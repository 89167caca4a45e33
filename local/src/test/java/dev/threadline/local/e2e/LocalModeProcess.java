package dev.threadline.local.e2e;

import dev.threadline.local.ThreadlineLocal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The local mode as its own OS process, started as a user starts it ({@link ThreadlineLocal} on
 * this JVM's class path), on a given data folder with free ports: a test can kill it as the kernel
 * would ({@link #kill}), which no in-process stop can imitate.
 */
final class LocalModeProcess implements AutoCloseable {
  private static final String API_LINE = "REST API:";
  private static final Duration START_TIME = Duration.ofMinutes(2);
  private static final int KEPT_LINES = 200;

  private final Process process;
  private final CompletableFuture<String> apiUrl = new CompletableFuture<>();

  /** The output's last lines, said when the start fails. */
  private final Deque<String> lastLines = new ArrayDeque<>();

  private LocalModeProcess(Process process) {
    this.process = process;
    Thread.ofVirtual().name("local-mode-output-" + process.pid()).start(this::readOutput);
  }

  /**
   * Starts the local mode on {@code dataDir} with alice's and bob's keys ({@link LocalModeFixture})
   * and returns once its REST API answers.
   */
  static LocalModeProcess start(Path dataDir) {
    return start(dataDir, Map.of());
  }

  /** {@link #start(Path)} with more variables in the process's environment. */
  static LocalModeProcess start(Path dataDir, Map<String, String> variables) {
    String java = ProcessHandle.current().info().command().orElseThrow();
    ProcessBuilder builder =
        new ProcessBuilder(
                java,
                // Quick to start and light on the suite's two cores: C1 only, one GC thread.
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx768m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                ThreadlineLocal.class.getName())
            .redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.put("THREADLINE_DATA_DIR", dataDir.toString());
    environment.put("THREADLINE_API_PORT", "0");
    environment.put("THREADLINE_KUBE_PORT", "0");
    environment.put(
        "THREADLINE_API_KEYS",
        LocalModeFixture.ALICE_KEY + "=alice," + LocalModeFixture.BOB_KEY + "=bob");
    environment.putAll(variables);
    LocalModeProcess started;
    try {
      started = new LocalModeProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the local mode's JVM", e);
    }
    try {
      started.apiUrl.get(START_TIME.toSeconds(), TimeUnit.SECONDS);
      return started;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      started.kill();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      started.kill();
      throw new IllegalStateException(
          "the local mode did not start; its output ended with:\n" + started.output(), e);
    }
  }

  /** The REST API's base URL, as the welcome text says it. */
  String apiUrl() {
    return apiUrl.join();
  }

  /** A client of this process's REST API. */
  LocalModeFixture client() {
    return LocalModeFixture.client(apiUrl());
  }

  /**
   * SIGKILL: the JVM ends at once, no shutdown hook runs, nothing is flushed or closed. Returns
   * once it has ended; its sandboxes end with it (bubblewrap's {@code --die-with-parent}), and any
   * descendant still alive then is killed too so that nothing outlives the test.
   */
  void kill() {
    List<ProcessHandle> descendants = new ArrayList<>(process.descendants().toList());
    process.destroyForcibly();
    awaitExit();
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  /** SIGTERM: the local mode's own stop (its shutdown hook closes everything), then waits. */
  void stop() {
    List<ProcessHandle> descendants = new ArrayList<>(process.descendants().toList());
    process.destroy();
    if (!awaitExit()) {
      process.destroyForcibly();
      awaitExit();
    }
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  private boolean awaitExit() {
    try {
      return process.waitFor(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The last lines it printed. */
  String output() {
    synchronized (lastLines) {
      return String.join("\n", lastLines);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }

  private void readOutput() {
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        int api = line.indexOf(API_LINE);
        if (api >= 0) {
          apiUrl.complete(line.substring(api + API_LINE.length()).strip());
        }
        synchronized (lastLines) {
          lastLines.addLast(line);
          if (lastLines.size() > KEPT_LINES) {
            lastLines.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // The process was killed: its output ends here.
    }
    apiUrl.completeExceptionally(new IllegalStateException("the process ended"));
  }
}
