package dev.threadline.api.threads;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.ArchivedThread;
import dev.threadline.history.History;
import dev.threadline.history.RunRecord;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Threads and runs that left the Kubernetes API after their retention, as the history store keeps
 * them (the objects as they were when they left): REST serves them as if they were live.
 */
final class KeptThreads {
  /** Archived threads read from the store per round trip while a listing goes on. */
  private static final int PAGE = 100;

  private final History history;
  private final KubernetesSerialization json;

  KeptThreads(History history, KubernetesSerialization json) {
    this.history = history;
    this.json = json;
  }

  Optional<ConversationThread> thread(String namespace, String name) {
    return history.threads().find(namespace, name).map(this::thread);
  }

  /** The namespace's archived threads, newest first (the name breaking ties), read page by page. */
  Stream<ConversationThread> newestFirst(String namespace) {
    Iterator<ConversationThread> pages =
        new Iterator<>() {
          private List<ArchivedThread> page = history.threads().page(namespace, null, null, PAGE);
          private int next;

          @Override
          public boolean hasNext() {
            if (next < page.size()) {
              return true;
            }
            if (page.size() < PAGE) {
              return false;
            }
            ArchivedThread last = page.getLast();
            page = history.threads().page(namespace, last.createdAt(), last.name(), PAGE);
            next = 0;
            return !page.isEmpty();
          }

          @Override
          public ConversationThread next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return thread(page.get(next++));
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  long count(String namespace) {
    return history.threads().count(namespace);
  }

  /**
   * The runs of {@code thread} that left the API, oldest first; none when its status says none did
   * (no read of the store for a thread that never lost a run).
   */
  List<Run> runsOf(ConversationThread thread) {
    ArchivedRuns archived = thread.getStatus() == null ? null : thread.getStatus().getArchived();
    if (ArchivedRuns.lastSequenceOf(archived) == 0) {
      return List.of();
    }
    return history
        .runs()
        .ofThread(thread.getMetadata().getNamespace(), thread.getMetadata().getName())
        .stream()
        .map(RunRecord::archived)
        .filter(Objects::nonNull)
        .map(object -> json.unmarshal(object, Run.class))
        .toList();
  }

  /** One run that left the API. */
  Optional<Run> run(String namespace, String name) {
    return history
        .runs()
        .find(namespace, name)
        .map(RunRecord::archived)
        .map(object -> json.unmarshal(object, Run.class));
  }

  /** Forgets the archived object of a thread that is live again (its history stays). */
  void revived(ConversationThread thread) {
    history.threads().remove(thread.getMetadata().getNamespace(), thread.getMetadata().getName());
  }

  /** Removes everything the store holds of the thread. */
  void delete(String namespace, String name) {
    history.deleteThread(namespace, name);
  }

  private ConversationThread thread(ArchivedThread archived) {
    return json.unmarshal(archived.object(), ConversationThread.class);
  }
}
