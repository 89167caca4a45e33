package dev.threadline.local;

import dev.threadline.local.build.LocalImageBuild;
import dev.threadline.local.build.LocalImagePush;
import dev.threadline.local.kubelet.LocalImages;
import dev.threadline.local.kubelet.LocalProgram;
import dev.threadline.local.kubelet.LocalPrograms;
import dev.threadline.trigger.TriggerMain;
import java.util.List;
import java.util.Set;

/**
 * The images the local mode can run, and how: the runner image and every environment image run the
 * runner in a JVM (images are not built locally, so an environment's packages are whatever the host
 * has), the trigger image its main class in a JVM; common shell images run their command on the
 * host.
 */
final class LocalImageCatalog {
  static final String RUNNER_IMAGE = "threadline/runner:local";
  static final String TRIGGER_IMAGE = "threadline/trigger:local";
  static final String REGISTRY = "registry.local/threadline";

  /** The entrypoint every Threadline image ends with (see the Dockerfile renderer). */
  static final String RUNNER_ENTRYPOINT = "/opt/threadline/bin/runner";

  static final String RUNNER_MAIN = "dev.threadline.runner.RunnerMain";

  /**
   * Kaniko's repository names (the maintained fork's and the original's): the operator's builder
   * image.
   */
  private static final Set<String> BUILDER_IMAGES = Set.of("kaniko", "executor");

  /** The image pusher of image builds (go-containerregistry's crane). */
  private static final String PUSHER_IMAGE = "crane";

  private static final Set<String> SHELL_IMAGES =
      Set.of("busybox", "alpine", "debian", "ubuntu", "bash");

  private LocalImageCatalog() {}

  static LocalImages create(JavaCommand java) {
    LocalProgram runner = runner(java);
    return new LocalImages()
        .register(
            "the Threadline runner (" + RUNNER_IMAGE + ")",
            image -> image.equals(RUNNER_IMAGE),
            runner)
        .register(
            "the schedule trigger (" + TRIGGER_IMAGE + ")",
            image -> image.equals(TRIGGER_IMAGE),
            container -> java.command(TriggerMain.class.getName(), container.args()))
        .register(
            "environment images (" + REGISTRY + "/<namespace>/env-*)",
            image -> image.startsWith(REGISTRY + "/") && repository(image).startsWith("env-"),
            runner)
        .register(
            "the image builder (Kaniko): checks the Dockerfile, builds nothing",
            image -> BUILDER_IMAGES.contains(repository(image)),
            container -> java.command(LocalImageBuild.class.getName(), container.args()))
        .register(
            "the image pusher (crane): pushes nothing",
            image -> PUSHER_IMAGE.equals(repository(image)),
            container -> java.command(LocalImagePush.class.getName(), container.args()))
        .register(
            "shell images (" + String.join(", ", SHELL_IMAGES.stream().sorted().toList()) + ")",
            image -> SHELL_IMAGES.contains(repository(image)),
            LocalPrograms.shell());
  }

  /** Runs the runner's main class where the image would run {@value #RUNNER_ENTRYPOINT}. */
  static LocalProgram runner(JavaCommand java) {
    LocalProgram entrypoint = LocalPrograms.image(List.of(RUNNER_ENTRYPOINT), List.of());
    return container -> {
      List<String> command = entrypoint.command(container);
      String program = command.get(0);
      if (!program.equals(RUNNER_ENTRYPOINT) && !program.equals("runner")) {
        throw new IllegalArgumentException(
            "in local mode image "
                + container.image()
                + " can only run the Threadline runner ("
                + RUNNER_ENTRYPOINT
                + "), not "
                + program);
      }
      return java.command(RUNNER_MAIN, command.subList(1, command.size()));
    };
  }

  /** {@code docker.io/library/busybox:1.36} → {@code busybox}. */
  static String repository(String image) {
    String withoutDigest = image.split("@", 2)[0];
    String name = withoutDigest.substring(withoutDigest.lastIndexOf('/') + 1);
    int colon = name.indexOf(':');
    return colon < 0 ? name : name.substring(0, colon);
  }
}
