package dev.threadline.runner.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** Reading files as UTF-8 text, telling text from binary. */
public final class TextFiles {

  private TextFiles() {}

  /** The bytes as text, or empty when they are binary: a NUL byte, or not UTF-8. */
  public static Optional<String> decode(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** At most the first {@code limit} bytes of a file. */
  static byte[] readHead(Path file, int limit) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(limit);
      return bytes.length == limit ? bytes : Arrays.copyOf(bytes, bytes.length);
    }
  }

  /** The number of lines of a text: a last line without a line break counts too. */
  public static int lineCount(String text) {
    return (int) text.lines().count();
  }
}
