package dev.threadline.api.threads;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.tracing.RunTraces;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ArchivedRuns;
import dev.threadline.crds.thread.ConversationThread;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a thread's next run, at most one at a time. The next position follows the latest run this
 * replica has seen; if that run is not finished the thread is busy (409). Two requests that race
 * past that check compute the same position and so the same run name: the Kubernetes API creates
 * one and refuses the other as AlreadyExists, which also becomes the 409. No lock, and it holds
 * across replicas.
 */
final class RunStarter {
  private static final Logger log = LoggerFactory.getLogger(RunStarter.class);
  static final String BUSY = "Thread is already processing";

  private final RunStore runs;

  RunStarter(RunStore runs) {
    this.runs = runs;
  }

  /**
   * @param postedToThread whether the message was posted to an existing thread (POST …/messages)
   * @param streamTokens whether the client asked for text deltas (the producer learns it from the
   *     Run's spec)
   */
  Run start(
      ConversationThread thread,
      String message,
      List<Attachment> attachments,
      boolean postedToThread,
      boolean streamTokens) {
    String namespace = thread.getMetadata().getNamespace();
    String threadName = thread.getMetadata().getName();
    List<Run> existing = runs.ofThread(namespace, threadName);
    // After the runs that left the API (their names are taken for good in the history store).
    long next =
        1
            + ArchivedRuns.lastSequenceOf(
                thread.getStatus() == null ? null : thread.getStatus().getArchived());
    if (!existing.isEmpty()) {
      Run latest = existing.getLast();
      if (!RunPhase.of(latest).isTerminal()) {
        throw ApiException.conflict(BUSY);
      }
      next = Math.max(next, RunStore.sequence(latest) + 1);
    }
    Run run = ThreadRuns.newRun(thread, next, message, attachments, ThreadRuns.SOURCE_API);
    if (streamTokens) {
      run.getSpec().setStreamTokens(true);
    }
    if (postedToThread) {
      run.getMetadata().setAnnotations(Map.of(Labels.POSTED_TO_THREAD, "true"));
    }
    RunTraces.continueIn(run);
    Run created = runs.create(run).orElseThrow(() -> ApiException.conflict(BUSY));
    log.info(
        "Run({}/{}) created for thread {}", namespace, created.getMetadata().getName(), threadName);
    return created;
  }
}
