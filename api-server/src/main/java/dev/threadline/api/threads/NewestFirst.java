package dev.threadline.api.threads;

import dev.threadline.crds.thread.ConversationThread;
import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The order of {@code GET /v1/threads}: newest first, the name breaking ties. Merges two streams
 * each in that order (the live threads and those kept in the history store) lazily, so a page reads
 * only as far as it shows.
 */
final class NewestFirst {
  static final Comparator<ConversationThread> ORDER =
      Comparator.comparing(
              (ConversationThread thread) -> ThreadMapper.createdAt(thread),
              Comparator.nullsLast(Comparator.<Instant>reverseOrder()))
          .thenComparing(thread -> thread.getMetadata().getName(), Comparator.reverseOrder());

  private NewestFirst() {}

  static Stream<ConversationThread> merge(
      Stream<ConversationThread> first, Stream<ConversationThread> second) {
    Iterator<ConversationThread> a = first.iterator();
    Iterator<ConversationThread> b = second.iterator();
    Iterator<ConversationThread> merged =
        new Iterator<>() {
          private ConversationThread nextA = a.hasNext() ? a.next() : null;
          private ConversationThread nextB;
          private boolean readB;

          @Override
          public boolean hasNext() {
            fillB();
            return nextA != null || nextB != null;
          }

          @Override
          public ConversationThread next() {
            fillB();
            if (nextA == null && nextB == null) {
              throw new NoSuchElementException();
            }
            ConversationThread taken;
            if (nextB == null || nextA != null && ORDER.compare(nextA, nextB) <= 0) {
              taken = nextA;
              nextA = a.hasNext() ? a.next() : null;
            } else {
              taken = nextB;
              nextB = null;
              readB = false;
            }
            return taken;
          }

          /** The second stream's head, read at the first comparison (not when merged). */
          private void fillB() {
            if (!readB) {
              nextB = b.hasNext() ? b.next() : null;
              readB = true;
            }
          }
        };
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(merged, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(first::close)
        .onClose(second::close);
  }
}
