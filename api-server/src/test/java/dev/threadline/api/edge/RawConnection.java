package dev.threadline.api.edge;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * One client connection written byte for byte: a request head, then (optionally) a body that
 * trickles one byte every {@code trickleMillis}, as a slow-body attacker sends it. Everything the
 * server answers is collected; {@link #closed()} completes when the server ends the connection.
 */
final class RawConnection implements AutoCloseable {
  private final Socket socket;
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final CompletableFuture<String> head = new CompletableFuture<>();

  private RawConnection(Socket socket) {
    this.socket = socket;
  }

  /**
   * Sends {@code head} (without the blank line ending it) and reads the answer in the background.
   */
  static RawConnection open(String baseUrl, String requestHead) {
    URI base = URI.create(baseUrl);
    try {
      Socket socket = new Socket(base.getHost(), base.getPort());
      socket.setSoTimeout(60_000);
      RawConnection connection = new RawConnection(socket);
      OutputStream out = socket.getOutputStream();
      out.write(
          (requestHead.replace("{host}", base.getHost() + ":" + base.getPort()) + "\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Thread.ofVirtual().name("raw-reader").start(connection::read);
      return connection;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A POST that declares {@code length} body bytes and sends them one every {@code millis}. */
  static RawConnection slowBody(String baseUrl, String path, String key, int length, long millis) {
    RawConnection connection =
        open(
            baseUrl,
            "POST "
                + path
                + " HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                + (key == null ? "" : "Authorization: Bearer " + key + "\r\n")
                + "Content-Length: "
                + length);
    Thread.ofVirtual().name("raw-trickle").start(() -> connection.trickle(length, millis));
    return connection;
  }

  private void trickle(int length, long millis) {
    try {
      OutputStream out = socket.getOutputStream();
      for (int i = 0; i < length && !closed.isDone(); i++) {
        out.write(' ');
        out.flush();
        Thread.sleep(millis);
      }
    } catch (IOException | InterruptedException gone) {
      // the server closed the connection (or the test did)
    }
  }

  private void read() {
    try {
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        synchronized (received) {
          received.write(buffer, 0, n);
          String text = received.toString(StandardCharsets.ISO_8859_1);
          if (!head.isDone() && text.contains("\r\n\r\n")) {
            head.complete(text.substring(0, text.indexOf("\r\n\r\n")));
          }
        }
      }
    } catch (IOException reset) {
      // a reset ends the connection as well
    } finally {
      closed.complete(null);
    }
  }

  /** The status line and headers, once they have arrived. */
  CompletableFuture<String> head() {
    return head;
  }

  int status() {
    String line = head.join();
    return Integer.parseInt(line.substring(9, 12));
  }

  /** A header's value (case-insensitive name), or null. */
  String header(String name) {
    String prefix = name.toLowerCase(Locale.ROOT) + ":";
    return head.join()
        .lines()
        .filter(line -> line.toLowerCase(Locale.ROOT).startsWith(prefix))
        .map(line -> line.substring(prefix.length()).strip())
        .findFirst()
        .orElse(null);
  }

  /** What came after the head so far (the body; chunk sizes included when chunked). */
  String body() {
    synchronized (received) {
      String text = received.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      return end < 0 ? "" : text.substring(end + 4);
    }
  }

  CompletableFuture<Void> closed() {
    return closed;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
