package dev.threadline.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalApiKeyTest {
  @TempDir Path dataDir;

  @Test
  void theKeyIsCreatedOnceOwnerOnlyAndReusedAfterwards() throws Exception {
    String first = LocalApiKey.readOrCreate(dataDir);
    assertThat(first).startsWith("tl_");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dataDir.resolve("api-key"))))
        .isEqualTo("rw-------");
    assertThat(LocalApiKey.readOrCreate(dataDir)).isEqualTo(first);
  }

  @Test
  void aDamagedFileIsReplaced() throws Exception {
    Files.writeString(dataDir.resolve("api-key"), "garbage");
    assertThat(LocalApiKey.readOrCreate(dataDir)).startsWith("tl_");
  }
}
