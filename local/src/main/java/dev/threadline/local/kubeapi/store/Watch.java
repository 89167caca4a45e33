package dev.threadline.local.kubeapi.store;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open watch: a bounded queue of events the store puts in (under its write lock, so in revision
 * order) and a virtual thread that hands them to the {@link WatchListener}. The replay a watch
 * starts with is not counted against the bound; live events are.
 */
public final class Watch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Watch.class);
  private static final WatchEvent END = new WatchEvent("END", null, null);

  private final Selection selection;
  private final BookmarkShape bookmarks;
  private final WatchListener listener;
  private final int capacity;
  private final Consumer<Watch> onEnd;
  private final LinkedBlockingQueue<WatchEvent> queue = new LinkedBlockingQueue<>();
  private final AtomicBoolean ended = new AtomicBoolean();

  Watch(
      Selection selection,
      BookmarkShape bookmarks,
      WatchListener listener,
      int capacity,
      Consumer<Watch> onEnd) {
    this.selection = selection;
    this.bookmarks = bookmarks;
    this.listener = listener;
    this.capacity = capacity;
    this.onEnd = onEnd;
  }

  Selection selection() {
    return selection;
  }

  /** How to shape this watch's bookmarks, or null when the client did not ask for them. */
  BookmarkShape bookmarks() {
    return bookmarks;
  }

  void start() {
    Thread.ofVirtual().name("watch-" + selection.resource()).start(this::deliver);
  }

  /** Part of the replay the watch starts with: never refused. */
  void replay(WatchEvent event) {
    queue.add(event);
  }

  /** A live event; when the client is too far behind, the watch ends with an error instead. */
  void offer(WatchEvent event) {
    if (ended.get()) {
      return;
    }
    if (queue.size() >= capacity) {
      LOG.warn(
          "A watch on {} fell {} events behind; ending it so that its client lists again",
          selection.resource(),
          capacity);
      fail(
          "the watch fell more than "
              + capacity
              + " events behind and was closed; list again and watch from the list's"
              + " resourceVersion");
      return;
    }
    queue.add(event);
  }

  /** Ends the watch with an error event the client sees. */
  void fail(String message) {
    if (ended.compareAndSet(false, true)) {
      queue.clear();
      queue.add(WatchEvent.gone(message));
      queue.add(END);
      onEnd.accept(this);
    }
  }

  /** Ends the watch without an error: the client left, or the store closes. */
  @Override
  public void close() {
    if (ended.compareAndSet(false, true)) {
      queue.add(END);
      onEnd.accept(this);
    }
  }

  private void deliver() {
    try {
      while (true) {
        WatchEvent event = queue.take();
        if (event == END) {
          break;
        }
        listener.onEvent(event.line());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.debug("A watch on {} failed to deliver an event", selection.resource(), e);
      ended.set(true);
      onEnd.accept(this);
    } finally {
      queue.clear();
      listener.onClose();
    }
  }
}
