package dev.threadline.local.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.environment.BuildErrors;
import dev.threadline.core.environment.DockerfileRenderer;
import dev.threadline.core.environment.ImageSpec;
import dev.threadline.core.environment.Packages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalImageBuildTest {
  private static final List<String> IMAGE_BUILD =
      List.of(
          "--dockerfile=/workspace/Dockerfile",
          "--context=dir:///workspace",
          "--no-push",
          "--destination=registry.local/threadline/alice/env-web:0123456789abcdef",
          "--tar-path=/output/image.tar",
          "--cache=true",
          "--cache-repo=registry.local/threadline/alice/cache");

  @TempDir Path workspace;

  @Test
  void aRenderedDockerfileChecksOutAndTheLogSaysWhatWouldHaveBeenPushed() throws IOException {
    String dockerfile =
        new DockerfileRenderer("debian:bookworm", "ghcr.io/threadline/runner:0.1.0")
            .render(
                new ImageSpec(
                    null,
                    Map.of("python", "3.12"),
                    new Packages(List.of("git"), List.of(), List.of()),
                    "ENV A=1",
                    List.of()))
            .content();
    Files.writeString(workspace.resolve("Dockerfile"), dockerfile);

    Run run = run(IMAGE_BUILD);

    assertThat(run.exitCode()).isZero();
    assertThat(run.log())
        .contains("container images are not built here")
        .contains(
            "Would build registry.local/threadline/alice/env-web:0123456789abcdef into"
                + " /output/image.tar for the push step (layer cache in"
                + " registry.local/threadline/alice/cache)")
        .contains("Nothing was built");
    assertThat(BuildErrors.classify(run.log(), false)).isEmpty();
  }

  @Test
  void thePushStepSaysWhatWouldHaveBeenPushedAndReportsNoDigest() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        LocalImagePush.run(
            List.of(
                "push",
                "/output/image.tar",
                "registry.local/threadline/alice/env-web:0123456789abcdef",
                "--image-refs=/dev/termination-log"),
            new PrintStream(out, true, StandardCharsets.UTF_8));

    assertThat(exit).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(
            "Would push registry.local/threadline/alice/env-web:0123456789abcdef from"
                + " /output/image.tar")
        .contains("Nothing was pushed")
        .doesNotContain("sha256:");
    assertThat(
            LocalImagePush.run(
                List.of("copy", "a", "b"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isEqualTo(1);
  }

  @Test
  void anInvalidDockerfileFailsTheWayTheOperatorClassifiesAsASyntaxError() throws IOException {
    Files.writeString(workspace.resolve("Dockerfile"), "FROM debian\nFROBNICATE now\n");

    Run run = run(IMAGE_BUILD);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.log()).contains("error parsing dockerfile").contains("line 2");
    assertThat(BuildErrors.classify(run.log(), false))
        .contains(BuildErrors.DOCKERFILE_SYNTAX_ERROR);
  }

  @Test
  void aTestBuildSaysNothingWouldBePushedAndFlagsMayTakeTheirValueSeparately() throws IOException {
    Files.writeString(workspace.resolve("Dockerfile"), "FROM debian\nRUN true\n");

    Run run =
        run(
            List.of(
                "--dockerfile",
                workspace.resolve("Dockerfile").toString(),
                "--context",
                "dir://" + workspace,
                "--no-push",
                "--cache=false",
                "--verbosity=debug"));

    assertThat(run.exitCode()).isZero();
    assertThat(run.log())
        .contains("nothing would be pushed (--no-push), and no layer cache would be used")
        .contains("Ignoring flags local mode does not use: --verbosity=debug");
  }

  @Test
  void aMissingDockerfileFails() {
    Run run = run(IMAGE_BUILD);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.log()).contains("/workspace/Dockerfile cannot be read");
  }

  @Test
  void commandRunsThisClassWithKanikosArguments() {
    assertThat(LocalImageBuild.command("/usr/bin/java", "a.jar:b.jar", List.of("--no-push")))
        .containsExactly(
            "/usr/bin/java",
            "-cp",
            "a.jar:b.jar",
            "dev.threadline.local.build.LocalImageBuild",
            "--no-push");
  }

  private Run run(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        LocalImageBuild.run(args, workspace, new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8));
  }

  private record Run(int exitCode, String log) {}
}
