package dev.threadline.local;

import dev.threadline.api.auth.ApiKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The default user's key in local mode, kept in the data folder (readable by its owner only) so
 * that scripts and shells keep working across restarts.
 */
final class LocalApiKey {
  static final String FILE = "api-key";

  private LocalApiKey() {}

  static String readOrCreate(Path dataDir) throws IOException {
    Path file = dataDir.resolve(FILE);
    if (Files.isRegularFile(file)) {
      String key = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (key.startsWith(ApiKeys.PREFIX)) {
        return key;
      }
    }
    String key = ApiKeys.newKey();
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, key + "\n", StandardCharsets.UTF_8);
    return key;
  }
}
