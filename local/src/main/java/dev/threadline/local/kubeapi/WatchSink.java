package dev.threadline.local.kubeapi;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where the store's watch listener sends its events: the listener believes it talks to a WebSocket,
 * and this passes each event on, filtered, to a WebSocket or to a chunked HTTP response.
 */
final class WatchSink implements WebSocket {
  /** The client connection of one watch. */
  interface Target {
    void send(String event);

    void close();
  }

  private final RecordedRequest request;
  private final WatchEventFilter filter;
  private final Target target;
  private final AtomicBoolean closed = new AtomicBoolean();

  WatchSink(RecordedRequest request, WatchEventFilter filter, Target target) {
    this.request = request;
    this.filter = filter;
    this.target = target;
  }

  @Override
  public RecordedRequest request() {
    return request;
  }

  @Override
  public synchronized boolean send(String text) {
    if (closed.get()) {
      return false;
    }
    String event = filter.apply(text);
    if (event != null) {
      target.send(event);
    }
    return true;
  }

  @Override
  public boolean send(byte[] bytes) {
    return send(new String(bytes, StandardCharsets.UTF_8));
  }

  @Override
  public boolean close(int code, String reason) {
    if (closed.compareAndSet(false, true)) {
      target.close();
    }
    return true;
  }
}
