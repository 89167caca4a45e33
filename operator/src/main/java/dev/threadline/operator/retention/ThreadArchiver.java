package dev.threadline.operator.retention;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import dev.threadline.history.ArchivedThread;
import dev.threadline.history.History;
import dev.threadline.operator.computer.WorkspaceClaim;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a thread with no run left in the Kubernetes API out of it once it has been idle for its
 * retention: the Thread as it was goes into the history store (REST goes on serving it from there,
 * and a follow-up message brings it back), then its workspace claim and the Thread are deleted.
 */
public final class ThreadArchiver {
  private static final Logger LOG = LoggerFactory.getLogger(ThreadArchiver.class);

  private final KubernetesClient client;
  private final History history;
  private final RetentionSettings settings;
  private final Clock clock;

  public ThreadArchiver(
      KubernetesClient client, History history, RetentionSettings settings, Clock clock) {
    this.client = client;
    this.history = history;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Archives {@code thread}, which has no live run, when it has been idle long enough; answers when
   * to look again (empty: it left).
   */
  public Optional<Duration> archiveWhenIdle(ConversationThread thread) {
    if (thread.isMarkedForDeletion()) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    Instant due = lastChange(thread).plus(settings.threads());
    if (due.isAfter(now)) {
      return Optional.of(Duration.between(now, due));
    }
    String namespace = thread.getMetadata().getNamespace();
    String name = thread.getMetadata().getName();
    history
        .threads()
        .archive(
            new ArchivedThread(
                namespace,
                name,
                Timestamps.sortable(createdAt(thread)),
                Timestamps.format(now),
                client.getKubernetesSerialization().asJson(thread)));
    // Nothing of the thread stays in the API: its workspace claim goes now, not when (or whether)
    // a garbage collector gets to it. A follow-up that revives the thread makes a fresh one.
    WorkspaceClaim.delete(client, namespace, name);
    client
        .resources(ConversationThread.class)
        .inNamespace(namespace)
        .withName(name)
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    try (ResourceLogContext logged = ResourceLogContext.of("Thread", namespace, name)) {
      LOG.info(
          "left the Kubernetes API after {} idle; kept in the history store", settings.threads());
    }
    return Optional.empty();
  }

  /** As REST lists it: the API server's annotation, else the object's creation. */
  private static Instant createdAt(ConversationThread thread) {
    java.util.Map<String, String> annotations = thread.getMetadata().getAnnotations();
    return Timestamps.parse(annotations == null ? null : annotations.get(Labels.CREATED_AT))
        .or(() -> Timestamps.parse(thread.getMetadata().getCreationTimestamp()))
        .orElse(Instant.EPOCH);
  }

  private static Instant lastChange(ConversationThread thread) {
    ThreadStatus status = thread.getStatus();
    Optional<Instant> updated = Timestamps.parse(status == null ? null : status.getUpdatedAt());
    Instant created =
        Timestamps.parse(thread.getMetadata().getCreationTimestamp()).orElse(Instant.EPOCH);
    return updated.filter(time -> time.isAfter(created)).orElse(created);
  }
}
