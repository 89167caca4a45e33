package dev.threadline.runner.image;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.environment.DockerfileRenderer;
import dev.threadline.core.image.Dockerfile;
import dev.threadline.core.image.ImageInputs;
import dev.threadline.runner.RunnerMain;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After {@code package}: the runner Dockerfile's inputs are in target/image, it links the runtime
 * from the committed module list, and it ends as Environment images expect (DockerfileRenderer
 * copies its /opt/threadline and starts bin/runner as the same user).
 */
class RunnerDockerfileIT {
  private final Dockerfile dockerfile = Dockerfile.read(ImageInputs.module().resolve("Dockerfile"));

  @Test
  void copiesOnlyFromTheImageLayout() {
    ImageInputs.assertCopiesOnlyFromTheLayout(dockerfile);
  }

  @Test
  void linksTheRuntimeFromTheCommittedModuleList() {
    Dockerfile.ContextCopy moduleList =
        dockerfile.contextCopies().stream()
            .filter(copy -> copy.sources().equals(List.of(ImageInputs.LAYOUT + "/jre-modules")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no COPY of the module list"));
    assertThat(dockerfile.arguments("RUN"))
        .anySatisfy(run ->
            assertThat(run)
                .startsWith("jlink --add-modules")
                .contains(moduleList.destination())
                .contains("--output " + DockerfileRenderer.RUNNER_HOME + "/jre"));
  }

  @Test
  void startsBinRunnerFromTheRunnerHomeAsTheAgentUser() throws Exception {
    String home = DockerfileRenderer.RUNNER_HOME;
    assertThat(dockerfile.entrypoint()).containsExactly(home + "/bin/runner");
    assertThat(dockerfile.contextCopies())
        .contains(
            new Dockerfile.ContextCopy(List.of(ImageInputs.LAYOUT + "/lib"), home + "/lib"),
            new Dockerfile.ContextCopy(List.of(ImageInputs.LAYOUT + "/bin"), home + "/bin"));
    assertThat(dockerfile.arguments("ENV")).contains("THREADLINE_RUNNER_HOME=" + home);
    int uid = DockerfileRenderer.RUNNER_UID;
    assertThat(dockerfile.last("USER")).isEqualTo(uid + ":" + uid);

    assertThat(Files.isExecutable(RunnerImageLayout.SCRIPT))
        .as("bin/runner is executable")
        .isTrue();
    assertThat(Files.readString(RunnerImageLayout.SCRIPT))
        .startsWith("#!/bin/sh\n")
        .contains("main=" + RunnerMain.class.getName() + "\n", " $main \"$@\"");
  }

  /** The cache is recorded by the training at the home every sandbox runs from, as bin/runner. */
  @Test
  void recordsTheAotCacheFromAServeTraining() {
    String home = DockerfileRenderer.RUNNER_HOME;
    assertThat(dockerfile.arguments("RUN"))
        .contains(
            "THREADLINE_RUNNER_AOT_OUTPUT="
                + home
                + "/runner.aot "
                + home
                + "/bin/runner aot-training");
  }
}
