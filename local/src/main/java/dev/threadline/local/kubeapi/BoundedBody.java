package dev.threadline.local.kubeapi;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a request's body as kube-apiserver does, never more than a limit: a body that declares or
 * sends more is refused as soon as that is known, and the rest of it is read and dropped (so the
 * client, still sending, reads the answer) up to one more limit's worth, then the connection is
 * closed. At most one limit of the body is ever held in memory.
 */
final class BoundedBody {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedBody.class);

  private final HttpServerRequest request;
  private final long limit;
  private final Consumer<byte[]> onBody;
  private final Runnable onTooLarge;
  private Buffer received = Buffer.buffer();
  private long dropped;

  private BoundedBody(
      HttpServerRequest request, long limit, Consumer<byte[]> onBody, Runnable onTooLarge) {
    this.request = request;
    this.limit = limit;
    this.onBody = onBody;
    this.onTooLarge = onTooLarge;
  }

  /**
   * Reads the body of {@code request} on its event loop: {@code onBody} gets it once it is complete
   * and at most {@code limit} bytes; otherwise {@code onTooLarge} runs, once, and {@code onBody}
   * never does.
   */
  static void read(
      HttpServerRequest request, long limit, Consumer<byte[]> onBody, Runnable onTooLarge) {
    BoundedBody body = new BoundedBody(request, limit, onBody, onTooLarge);
    request.exceptionHandler(e -> LOG.debug("Reading the body of {} failed", request.path(), e));
    request.handler(body::chunk);
    request.endHandler(v -> body.end());
    if (declaredLength(request) > limit) {
      body.refuse();
    }
  }

  private void chunk(Buffer chunk) {
    if (received == null) {
      dropped += chunk.length();
      if (dropped > limit) {
        // A client that keeps sending after its answer: stop reading it at all.
        request.connection().close();
      }
      return;
    }
    if ((long) received.length() + chunk.length() > limit) {
      dropped = (long) received.length() + chunk.length() - limit;
      refuse();
      return;
    }
    received.appendBuffer(chunk);
  }

  private void end() {
    if (received != null) {
      Buffer complete = received;
      received = null;
      onBody.accept(complete.getBytes());
    }
  }

  private void refuse() {
    if (received != null) {
      received = null;
      onTooLarge.run();
    }
  }

  private static long declaredLength(HttpServerRequest request) {
    String length = request.getHeader("Content-Length");
    if (length == null) {
      return -1;
    }
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
