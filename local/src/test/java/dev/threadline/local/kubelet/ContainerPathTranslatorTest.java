package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerPathTranslatorTest {
  private static final Path WORKSPACE = Path.of("/data/volumes/ns/ws");
  private static final Path HISTORY = Path.of("/data/pods/ns/p/volumes/history");

  private final Container container =
      new ContainerBuilder()
          .withName("agent")
          .addNewVolumeMount()
          .withName("ws")
          .withMountPath("/workspace/")
          .endVolumeMount()
          .addNewVolumeMount()
          .withName("history")
          .withMountPath("/workspace/.history")
          .endVolumeMount()
          .build();

  @Test
  void wholeValuesUnderAMountAreRewrittenAndTheLongestMountWins() throws Exception {
    ContainerPathTranslator paths =
        ContainerPathTranslator.forContainer(
            container, Map.of("ws", WORKSPACE, "history", HISTORY));

    assertThat(paths.translate("/workspace")).isEqualTo(WORKSPACE.toString());
    assertThat(paths.translate("/workspace/src/a.py")).isEqualTo(WORKSPACE + "/src/a.py");
    assertThat(paths.translate("/workspace/.history/1.json")).isEqualTo(HISTORY + "/1.json");
    assertThat(paths.translate("/workspaces")).isEqualTo("/workspaces");
    assertThat(paths.translate("cat /workspace/a")).isEqualTo("cat /workspace/a");
    assertThat(paths.translate("/bin/sh")).isEqualTo("/bin/sh");
  }

  @Test
  void workingDirectoryOutsideAnyMountLivesInThePodsRootfs() throws Exception {
    ContainerPathTranslator paths =
        ContainerPathTranslator.forContainer(
            container, Map.of("ws", WORKSPACE, "history", HISTORY));
    Path rootfs = Path.of("/data/pods/ns/p/rootfs");

    assertThat(paths.workingDirectory("/workspace/src", rootfs, Path.of("/home")))
        .isEqualTo(WORKSPACE.resolve("src"));
    assertThat(paths.workingDirectory("/app", rootfs, Path.of("/home")))
        .isEqualTo(rootfs.resolve("app"));
    assertThat(paths.workingDirectory("/../../etc", rootfs, Path.of("/home")))
        .startsWithRaw(rootfs);
    assertThat(paths.workingDirectory(null, rootfs, Path.of("/home"))).isEqualTo(Path.of("/home"));
  }

  @Test
  void mountOfAnUndefinedVolumeIsAConfigError() {
    assertThatThrownBy(
            () -> ContainerPathTranslator.forContainer(container, Map.of("ws", WORKSPACE)))
        .isInstanceOf(PodStartFailure.class)
        .hasMessageContaining("\"history\"");
  }

  @Test
  void variableReferencesExpandLikeKubernetes() {
    Map<String, String> env = Map.of("NAME", "world");

    assertThat(PodEnvironmentResolver.expand("hello $(NAME), $(MISSING), $$(NAME)", env))
        .isEqualTo("hello world, $(MISSING), $(NAME)");
  }
}
