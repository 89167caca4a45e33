package dev.threadline.local.kubelet.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxLimitsTest {
  @TempDir Path folder;

  @Test
  void limitsAreReadFromTheContainersResources() {
    Container container =
        new ContainerBuilder()
            .withName("runner")
            .withNewResources()
            .addToLimits("memory", new Quantity("2Gi"))
            .addToLimits("cpu", new Quantity("1500m"))
            .addToLimits("ephemeral-storage", new Quantity("1G"))
            .addToRequests("memory", new Quantity("64Mi"))
            .endResources()
            .build();

    assertThat(SandboxLimits.of(container, 256, 600L))
        .isEqualTo(new SandboxLimits(2L << 30, 1500, 1_000_000_000L, 256, 900));
    // Without a deadline no CPU total can be set; without limits only the processes are bounded.
    assertThat(SandboxLimits.of(container, 256, null).cpuSeconds()).isZero();
    assertThat(SandboxLimits.of(new ContainerBuilder().withName("bare").build(), 8, 600L))
        .isEqualTo(new SandboxLimits(0, 0, 0, 8, 0));
  }

  @Test
  void commandsGetTheProcessLimitLessTheRunnersHeadroom() {
    assertThat(new SandboxLimits(0, 0, 0, 1024, 0).commandPids()).isEqualTo(960);
    assertThat(new SandboxLimits(0, 0, 0, 96, 0).commandPids()).isEqualTo(48);
    assertThat(new SandboxLimits(0, 0, 0, 1, 0).commandPids()).isEqualTo(1);
  }

  @Test
  void absurdQuantitiesSaturateRatherThanOverflow() {
    Container container =
        new ContainerBuilder()
            .withName("huge")
            .withNewResources()
            .addToLimits("memory", new Quantity("100Ei"))
            .addToLimits("cpu", new Quantity("9223372036854775807"))
            .endResources()
            .build();

    SandboxLimits limits = SandboxLimits.of(container, 1, Long.MAX_VALUE);
    assertThat(limits.memoryBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(limits.cpuSeconds()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void prlimitSetsSoftAndHardAlikeAndLeavesOutWhatIsUnbounded() {
    Prlimit prlimit = new Prlimit(Path.of("/usr/bin/prlimit"));
    Map<String, Long> limits = new LinkedHashMap<>();
    limits.put("as", 0L);
    limits.put("fsize", 1024L);
    limits.put("nproc", 50L);

    assertThat(prlimit.wrap(limits, List.of("sh", "-c", "true")))
        .containsExactly(
            "/usr/bin/prlimit", "--fsize=1024:1024", "--nproc=50:50", "--", "sh", "-c", "true");
    assertThat(prlimit.wrap(Map.of("as", 0L), List.of("true"))).containsExactly("true");
  }

  @Test
  void underRlimitsNoFileGrowsPastTheStorageLimit() throws Exception {
    Optional<Path> prlimit = Optional.of(Path.of("/usr/bin/prlimit")).filter(Files::isExecutable);
    assumeTrue(prlimit.isPresent(), "prlimit (util-linux) is not installed");
    ResourceControl rlimits = ResourceControls.detect(Map.of(ResourceControls.VARIABLE, "rlimits"));
    assertThat(rlimits.describe()).contains("rlimits");

    Path file = folder.resolve("big");
    try (ResourceControl.Bounds bounds =
        rlimits.bound("fill", new SandboxLimits(0, 0, 100_000, 64, 0))) {
      Process process =
          new ProcessBuilder(
                  bounds.wrap(
                      List.of("/bin/sh", "-c", "head -c 1000000 /dev/zero > " + file + "; true")))
              .redirectErrorStream(true)
              .start();
      process.getInputStream().readAllBytes();
      process.waitFor();
    }

    assertThat(Files.size(file)).isEqualTo(100_000);
  }
}
