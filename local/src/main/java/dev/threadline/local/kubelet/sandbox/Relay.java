package dev.threadline.local.kubelet.sandbox;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Copies bytes both ways between two connected channels until either side closes. */
final class Relay {
  private Relay() {}

  static void between(SocketChannel a, SocketChannel b) {
    Thread back = Thread.ofVirtual().name("relay").start(() -> copy(b, a));
    copy(a, b);
    try {
      back.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close(a);
      close(b);
    }
  }

  private static void copy(SocketChannel from, SocketChannel to) {
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    try {
      while (from.read(buffer) >= 0) {
        buffer.flip();
        while (buffer.hasRemaining()) {
          to.write(buffer);
        }
        buffer.clear();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      // One side went away: closing both ends the other direction too.
      close(from);
      close(to);
    }
  }

  private static void close(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // already gone
    }
  }
}
