package dev.threadline.api.threads;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.stream.RunLog;
import dev.threadline.api.tracing.RunTraces;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.MultitaskStrategy;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.history.History;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a thread's next run. The next position follows the latest run this replica has seen; if an
 * earlier run is not finished the thread is busy, and the message's {@link MultitaskStrategy}
 * decides: {@code reject} (409), {@code enqueue} (the run is created and waits for the earlier
 * ones: the operator starts a run only when every earlier run of its thread has ended), {@code
 * interrupt} or {@code rollback} (created the same way, then the unfinished runs are asked to stop,
 * marked with the strategy). Two requests that race past that check compute the same position and
 * so the same run name: the Kubernetes API creates one and refuses the other as AlreadyExists,
 * which is the 409 of {@code reject}, and for the other strategies a reason to take the next
 * position. No lock, and it holds across replicas.
 *
 * <p>A message longer than {@link RunSpec#INLINE_MESSAGE} is stored in the history store first; the
 * Run carries its beginning and the body's id. Once the Run exists its whole message is recorded.
 */
final class RunStarter {
  private static final Logger log = LoggerFactory.getLogger(RunStarter.class);
  static final String BUSY = "Thread is already processing";

  /** Positions a non-rejecting message tries when racing messages take them first. */
  private static final int RACE_ATTEMPTS = 8;

  private final RunStore runs;
  private final History history;
  private final int maxQueued;

  RunStarter(RunStore runs, History history, int maxQueued) {
    this.runs = runs;
    this.history = history;
    this.maxQueued = maxQueued;
  }

  /**
   * @param postedToThread whether the message was posted to an existing thread (POST …/messages)
   * @param streamTokens whether the client asked for text deltas (the producer learns it from the
   *     Run's spec)
   * @param strategy what to do when the thread still works on an earlier message
   */
  Run start(
      ConversationThread thread,
      String message,
      List<Attachment> attachments,
      boolean postedToThread,
      boolean streamTokens,
      MultitaskStrategy strategy) {
    String namespace = thread.getMetadata().getNamespace();
    String threadName = thread.getMetadata().getName();
    List<Run> existing = runs.ofThread(namespace, threadName);
    // After the runs that left the API (their names are taken for good in the history store).
    long next =
        1
            + ArchivedRuns.lastSequenceOf(
                thread.getStatus() == null ? null : thread.getStatus().getArchived());
    if (!existing.isEmpty()) {
      next = Math.max(next, RunStore.sequence(existing.getLast()) + 1);
    }
    List<Run> unfinished = existing.stream().filter(run -> !RunPhase.of(run).isTerminal()).toList();
    if (!unfinished.isEmpty()) {
      checkBusy(strategy, unfinished.size() - 1);
    }
    for (int attempt = 1; ; attempt++) {
      Optional<Run> created =
          create(thread, next, message, attachments, postedToThread, streamTokens);
      if (created.isPresent()) {
        if (strategy.cancelsEarlier()) {
          supersede(namespace, unfinished, strategy);
        }
        return created.get();
      }
      // A racing message took the position: it is an earlier run now.
      if (strategy == MultitaskStrategy.REJECT || attempt == RACE_ATTEMPTS) {
        throw ApiException.conflict(BUSY);
      }
      Optional<Run> racer = runs.fetch(namespace, ThreadRuns.runName(threadName, next));
      if (racer.isPresent() && !RunPhase.of(racer.get()).isTerminal()) {
        unfinished = java.util.stream.Stream.concat(unfinished.stream(), racer.stream()).toList();
        checkBusy(strategy, unfinished.size() - 1);
      }
      next++;
    }
  }

  /** The thread works on an earlier message and {@code waiting} more wait behind it. */
  private void checkBusy(MultitaskStrategy strategy, int waiting) {
    if (strategy == MultitaskStrategy.REJECT) {
      throw ApiException.conflict(BUSY);
    }
    if (strategy == MultitaskStrategy.ENQUEUE && waiting >= maxQueued) {
      throw ApiException.tooManyRequests(
          "The thread already has "
              + waiting
              + " messages waiting (multitaskStrategy enqueue), the most it may hold: send this"
              + " one once a run has ended");
    }
  }

  /** Asks the earlier unfinished runs to stop, for a message that supersedes them. */
  private void supersede(String namespace, List<Run> unfinished, MultitaskStrategy strategy) {
    for (Run earlier : unfinished) {
      String name = earlier.getMetadata().getName();
      if (runs.requestSupersede(namespace, name, strategy)) {
        log.info("Run({}/{}) superseded ({})", namespace, name, strategy.value());
      }
    }
  }

  /** The run at {@code sequence}; empty when a run of that name exists already. */
  private Optional<Run> create(
      ConversationThread thread,
      long sequence,
      String message,
      List<Attachment> attachments,
      boolean postedToThread,
      boolean streamTokens) {
    String namespace = thread.getMetadata().getNamespace();
    String threadName = thread.getMetadata().getName();
    Run run = ThreadRuns.newRun(thread, sequence, message, attachments, ThreadRuns.SOURCE_API);
    String ref = null;
    if (message.length() > RunSpec.INLINE_MESSAGE) {
      // Too long for the Run: the body goes to the store first, so it exists whenever the Run does.
      ref = UUID.randomUUID().toString();
      history.messageBodies().write(namespace, threadName, ref, message);
      run.getSpec().setMessage(preview(message));
      run.getSpec().setMessageRef(ref);
    }
    if (streamTokens) {
      run.getSpec().setStreamTokens(true);
    }
    if (postedToThread) {
      run.getMetadata().setAnnotations(Map.of(Labels.POSTED_TO_THREAD, "true"));
    }
    RunTraces.continueIn(run);
    Optional<Run> created;
    try {
      created = runs.create(run);
    } catch (RuntimeException failed) {
      if (ref != null) {
        forgetBody(run, ref);
      }
      throw failed;
    }
    if (created.isEmpty()) {
      if (ref != null) {
        forgetBody(run, ref);
      }
      return created;
    }
    log.info(
        "Run({}/{}) created for thread {}",
        namespace,
        created.get().getMetadata().getName(),
        threadName);
    record(created.get(), message);
    return created;
  }

  /**
   * The Run meant to carry the stored body {@code ref} was refused (a limit, a conflict, a
   * failure): the body must not stay behind, counted against the user's history. A failure whose
   * answer was lost may have made the Run all the same: the API says which. Should the store or the
   * API fail here, the retention sweep removes the body later, as no run claims it.
   */
  private void forgetBody(Run run, String ref) {
    String namespace = run.getMetadata().getNamespace();
    try {
      boolean made =
          runs.fetch(namespace, run.getMetadata().getName())
              .map(found -> ref.equals(found.getSpec().getMessageRef()))
              .orElse(false);
      if (made) {
        history.messageBodies().claim(namespace, ref, run.getMetadata().getName());
      } else {
        history.messageBodies().deleteUnclaimed(namespace, ref);
      }
    } catch (RuntimeException cleanup) {
      log.warn(
          "Run({}/{}) was not created; its stored message body goes with the next sweep: {}",
          namespace,
          run.getMetadata().getName(),
          cleanup.toString());
    }
  }

  /** The message's first {@link RunSpec#INLINE_MESSAGE} characters, never half a surrogate pair. */
  static String preview(String message) {
    int end = RunSpec.INLINE_MESSAGE;
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--;
    }
    return message.substring(0, end);
  }

  /**
   * Records the run's whole message and claims its stored body. The operator does both too when it
   * first sees the run (the first record wins, and both are the same), so a store that fails here
   * loses nothing.
   */
  private void record(Run created, String message) {
    try {
      String ref = created.getSpec().getMessageRef();
      if (ref != null) {
        history
            .messageBodies()
            .claim(created.getMetadata().getNamespace(), ref, created.getMetadata().getName());
      }
      history
          .runs()
          .recordMessage(
              RunLog.key(created),
              RunStore.sequence(created),
              message,
              Timestamps.normalize(created.getMetadata().getCreationTimestamp()));
    } catch (RuntimeException failed) {
      log.warn(
          "Run({}/{}): its message is not recorded yet (the operator records it): {}",
          created.getMetadata().getNamespace(),
          created.getMetadata().getName(),
          failed.toString());
    }
  }
}
