package dev.threadline.runner.serve.calls;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes output that arrives in pieces: a character split between two pieces is held back until
 * its last byte arrives, instead of becoming two replacement characters.
 */
final class Utf8Chunks {
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private ByteBuffer pending = ByteBuffer.allocate(0);

  String decode(byte[] bytes, int offset, int length) {
    ByteBuffer in = ByteBuffer.allocate(pending.remaining() + length);
    in.put(pending).put(bytes, offset, length).flip();
    CharBuffer out = CharBuffer.allocate(in.remaining());
    decoder.decode(in, out, false);
    pending = ByteBuffer.allocate(in.remaining()).put(in).flip();
    return out.flip().toString();
  }
}
