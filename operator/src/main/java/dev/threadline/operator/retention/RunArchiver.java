package dev.threadline.operator.retention;

import dev.threadline.core.threads.ThreadTotals;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a finished Run out of the Kubernetes API once its retention has passed: the Run's last
 * state goes into the history store beside its content, what it added to its thread's totals into
 * the thread's {@code status.archived}, and then the Run is deleted. Runs of a thread leave in
 * order, so "every run up to {@code archived.lastSequence} has left" holds; each step can be
 * repeated (a restart between two of them repeats them, counting nothing twice).
 */
public final class RunArchiver {
  private static final Logger LOG = LoggerFactory.getLogger(RunArchiver.class);

  /** How soon a run waiting for an earlier run of its thread to leave looks again. */
  static final Duration WAIT_FOR_EARLIER = Duration.ofSeconds(2);

  private static final int ATTEMPTS = 5;

  private final KubernetesClient client;
  private final History history;
  private final RetentionSettings settings;
  private final Clock clock;

  public RunArchiver(
      KubernetesClient client, History history, RetentionSettings settings, Clock clock) {
    this.client = client;
    this.history = history;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Archives {@code run} when its time has come; answers when to look again (empty: the run left,
   * or it is not finished).
   *
   * @param threadRuns the live runs of the same namespace (the run's thread's among them), asked
   *     for only once the run is due: every finished run is reconciled, most long before then
   */
  public Optional<Duration> archiveWhenDue(Run run, Supplier<Stream<Run>> threadRuns) {
    if (!RunPhase.of(run).isTerminal() || run.isMarkedForDeletion()) {
      return Optional.empty();
    }
    Instant due = dueAt(run);
    Duration wait = Duration.between(clock.instant(), due);
    if (!settled(run)) {
      // Its bookkeeping is being written: look again when it is due, or just after the write.
      return Optional.of(max(wait, Duration.ofSeconds(1)));
    }
    if (wait.isPositive()) {
      return Optional.of(wait);
    }
    if (earlierRunLive(run, threadRuns.get())) {
      return Optional.of(WAIT_FOR_EARLIER);
    }
    archive(run);
    return Optional.empty();
  }

  /** Its usage is counted and its webhooks queued: nothing more is written to it. */
  static boolean settled(Run run) {
    RunStatus status = run.getStatus();
    return status != null
        && Boolean.TRUE.equals(status.getUsageRecorded())
        && Boolean.TRUE.equals(status.getWebhooksQueued());
  }

  private Instant dueAt(Run run) {
    String completed = run.getStatus() == null ? null : run.getStatus().getCompletedAt();
    Instant ended =
        Timestamps.parse(completed)
            .or(() -> Timestamps.parse(run.getMetadata().getCreationTimestamp()))
            .orElse(clock.instant());
    return ended.plus(settings.runs());
  }

  private static boolean earlierRunLive(Run run, Stream<Run> runs) {
    long sequence = sequence(run);
    return runs.anyMatch(other ->
        Objects.equals(other.getSpec().getThread(), run.getSpec().getThread())
            && Objects.equals(other.getMetadata().getNamespace(), run.getMetadata().getNamespace())
            && sequence(other) < sequence);
  }

  private void archive(Run run) {
    String namespace = run.getMetadata().getNamespace();
    String thread = run.getSpec().getThread();
    RunKey key = new RunKey(namespace, thread, run.getMetadata().getName());
    history
        .runs()
        .recordMessage(
            key,
            sequence(run),
            RunMessages.whole(history, run),
            run.getMetadata().getCreationTimestamp());
    history.runs().recordArchived(key, client.getKubernetesSerialization().asJson(run));
    addToThread(run);
    client
        .resources(Run.class)
        .inNamespace(namespace)
        .withName(run.getMetadata().getName())
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    try (ResourceLogContext logged = ResourceLogContext.of(run)) {
      LOG.info("left the Kubernetes API after its retention; kept in the history store");
    }
  }

  /** Adds the run's totals to its thread's {@code status.archived}, once. */
  private void addToThread(Run run) {
    String namespace = run.getMetadata().getNamespace();
    String name = run.getSpec().getThread();
    ConversationThread thread =
        client.resources(ConversationThread.class).inNamespace(namespace).withName(name).get();
    if (thread == null) {
      return; // the thread is gone, and its runs with it
    }
    StatusWriteLoop.write(
        client,
        thread,
        ATTEMPTS,
        code -> code == HttpURLConnection.HTTP_CONFLICT,
        () ->
            client.resources(ConversationThread.class).inNamespace(namespace).withName(name).get(),
        copy -> {
          ThreadStatus status = copy.getStatus() == null ? new ThreadStatus() : copy.getStatus();
          if (ArchivedRuns.lastSequenceOf(status.getArchived()) >= sequence(run)) {
            return false; // counted by an earlier attempt
          }
          status.setArchived(ThreadTotals.archive(status.getArchived(), run));
          copy.setStatus(status);
          return true;
        });
  }

  private static long sequence(Run run) {
    return Objects.requireNonNullElse(run.getSpec().getSequence(), 0L);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
