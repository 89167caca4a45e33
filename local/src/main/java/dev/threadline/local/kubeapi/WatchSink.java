package dev.threadline.local.kubeapi;

import dev.threadline.local.kubeapi.store.WatchListener;

/**
 * Where a store watch sends its events: each event, made what the client asked for by the {@link
 * WatchEventFilter}, goes to a WebSocket or a chunked HTTP response.
 */
final class WatchSink implements WatchListener {
  /** The client connection of one watch. */
  interface Target {
    void send(String event);

    void close();
  }

  private final WatchEventFilter filter;
  private final Target target;

  WatchSink(WatchEventFilter filter, Target target) {
    this.filter = filter;
    this.target = target;
  }

  @Override
  public void onEvent(String event) {
    String shaped = filter.apply(event);
    if (shaped != null) {
      target.send(shaped);
    }
  }

  @Override
  public void onClose() {
    target.close();
  }
}
