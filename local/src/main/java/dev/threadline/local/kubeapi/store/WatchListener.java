package dev.threadline.local.kubeapi.store;

/**
 * Receives a watch's events, one at a time, on the watch's own thread. It may block (a slow
 * client), but while it does the watch's bounded queue fills; a full queue ends the watch with an
 * {@code ERROR} event ({@code 410 Expired}), so that a client is never left with a silent watch.
 */
public interface WatchListener {
  /** A JSON event line: {@code {"type":"MODIFIED","object":{...}}}. */
  void onEvent(String event);

  /** The watch ended (after an error event, or closed by either side); no event follows. */
  void onClose();
}
