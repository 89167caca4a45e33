package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.api.model.Event;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A port range with fewer ports than sandboxes that want one: the run that finds none free waits
 * for one (a {@code PortWait} Event says so) and starts once another run's sandbox goes, instead of
 * failing.
 */
class SandboxPortWaitE2ETest {
  private static final int RUNS = 3;

  @Test
  void threeConcurrentComputerRunsOnARangeOfTwoPortsAllComplete() throws Exception {
    int first = freePair();
    LocalModeFixture local =
        LocalModeFixture.start(
            Map.of("THREADLINE_CONTAINER_PORTS", first + "-" + (first + 1)),
            UnaryOperator.identity());
    try (ExecutorService users = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Run>> runs = new ArrayList<>();
      for (int i = 0; i < RUNS; i++) {
        // Each sandbox lives a few seconds: the three overlap, and one of them finds no port.
        String task = "{\"task\":\"Run `sleep 3; echo waited-" + i + "`\",\"stream\":false}";
        runs.add(users.submit(() -> SandboxPortsE2ETest.run(local, task)));
      }
      for (Future<Run> future : runs) {
        Run run = future.get();
        assertThat(run.getStatus().getPhase())
            .as("%s: %s", run.getMetadata().getName(), run.getStatus().getError())
            .isEqualTo("completed");
      }
      assertThat(local.local().client().v1().events().inNamespace("alice").list().getItems())
          .extracting(Event::getReason)
          .as("a run waited for a port, and said so")
          .contains("PortWait")
          .doesNotContain("SandboxStartFailed");
    } finally {
      local.close();
    }
  }

  /** Two consecutive free ports below the system's ephemeral ports. */
  private static int freePair() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int candidate = 20_000 + ThreadLocalRandom.current().nextInt(10_000);
      if (free(candidate) && free(candidate + 1)) {
        return candidate;
      }
    }
    throw new IllegalStateException("no two free ports found below the ephemeral range");
  }

  private static boolean free(int port) throws IOException {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
      return true;
    } catch (java.net.BindException taken) {
      return false;
    }
  }
}
