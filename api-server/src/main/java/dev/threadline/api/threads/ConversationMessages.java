package dev.threadline.api.threads;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.history.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A thread's messages, read from its runs: each run is the user's message and, once answered, the
 * assistant's, both whole from the history store (a run not recorded yet shows its spec's). The
 * same counting as the thread's {@code messageCount}: a failed or cancelled run shows only its
 * question.
 */
final class ConversationMessages {
  private ConversationMessages() {}

  /** Oldest first; {@code runs} must be in sequence order and of one thread. */
  static List<MessageView> of(List<Run> runs, RunContents contents) {
    List<MessageView> messages = new ArrayList<>();
    if (runs.isEmpty()) {
      return messages;
    }
    Run first = runs.getFirst();
    Map<String, RunRecord> records =
        contents.recordsOf(first.getMetadata().getNamespace(), first.getSpec().getThread());
    for (Run run : runs) {
      String runName = run.getMetadata().getName();
      RunRecord record = records.get(runName);
      messages.add(
          new MessageView(
              RunNames.userMessageId(runName),
              ResourceIds.toId(run.getSpec().getThread()),
              InitialTask.USER,
              contents.message(run, record),
              null,
              null,
              null,
              Timestamps.normalize(run.getMetadata().getCreationTimestamp())));
      RunStatus status = run.getStatus();
      String response = contents.response(run, record);
      if (RunPhase.of(run) == RunPhase.COMPLETED && response != null) {
        TokenCounts usage = TokenCounts.zero().plus(status.getUsage());
        messages.add(
            new MessageView(
                RunNames.assistantMessageId(runName),
                null,
                "assistant",
                response,
                Objects.requireNonNullElse(status.getDurationMs(), 0L),
                usage.input(),
                usage.output(),
                Timestamps.normalize(status.getCompletedAt())));
      }
    }
    return messages;
  }

  /** The {@code order} parameter: {@code asc} (default) or {@code desc}. */
  static boolean newestFirst(String order) {
    if (order == null || order.equals("asc")) {
      return false;
    }
    if (order.equals("desc")) {
      return true;
    }
    throw ApiException.badRequest("order", "must be asc or desc");
  }
}
