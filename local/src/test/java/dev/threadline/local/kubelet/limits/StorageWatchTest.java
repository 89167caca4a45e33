package dev.threadline.local.kubelet.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageWatchTest {
  @TempDir Path root;

  @Test
  void theFirstBoundPassedIsReportedWithItsMessage() throws Exception {
    Path tmp = Files.createDirectories(root.resolve("tmp"));
    Path workspace = Files.createDirectories(root.resolve("workspace/deep/er"));
    Files.write(tmp.resolve("a"), new byte[600]);
    Files.write(workspace.resolve("b"), new byte[600]);
    Files.write(workspace.resolve("c"), new byte[600]);

    StorageWatch watch =
        new StorageWatch(
            List.of(
                new StorageWatch.Bound(List.of(tmp), 1000, "tmp is full"),
                new StorageWatch.Bound(List.of(root.resolve("workspace")), 1000, "workspace"),
                new StorageWatch.Bound(List.of(tmp, root.resolve("workspace")), 10_000, "all")));

    assertThat(watch.exceeded()).contains("workspace");
    Files.delete(workspace.resolve("c"));
    assertThat(watch.exceeded()).isEmpty();
  }

  @Test
  void aMissingFolderHoldsNothing() {
    StorageWatch watch =
        new StorageWatch(List.of(new StorageWatch.Bound(List.of(root.resolve("gone")), 0, "x")));

    assertThat(watch.watches()).isTrue();
    assertThat(watch.exceeded()).isEmpty();
    assertThat(new StorageWatch(List.of()).watches()).isFalse();
  }
}
