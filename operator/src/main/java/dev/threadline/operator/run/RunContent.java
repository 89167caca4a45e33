package dev.threadline.operator.run;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import dev.threadline.models.ChatMessage;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run's conversation content in the history store — its whole message and whole answer — and the
 * bounded previews of them its status keeps (a Run stays small whatever the run says).
 */
public final class RunContent {
  private final History history;

  public RunContent(History history) {
    this.history = history;
  }

  public History history() {
    return history;
  }

  /**
   * The run's whole message: the spec's, or the stored body its {@code messageRef} names (a message
   * longer than {@link RunSpec#INLINE_MESSAGE}); the spec's preview when that body is gone.
   */
  public String message(Run run) {
    String inline = Objects.requireNonNullElse(run.getSpec().getMessage(), "");
    String ref = run.getSpec().getMessageRef();
    if (ref == null || ref.isBlank()) {
      return inline;
    }
    return history.messageBodies().read(run.getMetadata().getNamespace(), ref).orElse(inline);
  }

  /**
   * Records the run's whole message (the first record wins: doing it again is harmless), and claims
   * its stored body for it, so the retention sweep of bodies no run claimed keeps it.
   */
  public void recordMessage(Run run) {
    RunKey key = RunEventLog.key(run);
    String ref = run.getSpec().getMessageRef();
    if (ref != null && !ref.isBlank()) {
      history.messageBodies().claim(key.namespace(), ref, key.run());
    }
    String created = run.getMetadata().getCreationTimestamp();
    history
        .runs()
        .recordMessage(
            key,
            Objects.requireNonNullElse(run.getSpec().getSequence(), 0L),
            message(run),
            created == null ? Timestamps.format(Instant.EPOCH) : created);
  }

  /** Records the whole answer (and the message first, should no one have yet). */
  public void recordResponse(Run run, String response) {
    recordMessage(run);
    history.runs().recordResponse(RunEventLog.key(run), response);
  }

  /** What the model sees of the run's thread, ending with the run's own whole message. */
  public List<ChatMessage> conversation(Run run) {
    return ConversationHistory.of(
        history
            .runs()
            .ofThread(
                run.getMetadata().getNamespace(),
                Objects.requireNonNullElse(run.getSpec().getThread(), "")),
        Objects.requireNonNullElse(run.getSpec().getSequence(), 0L),
        message(run));
  }

  /** Sets the status's answer preview and its bounded action lines. */
  public static void answer(RunStatus status, String response, List<String> actions) {
    status.setResponse(preview(response));
    status.setActions(actions == null ? null : actions(actions));
  }

  /** At most {@link RunStatus#RESPONSE_PREVIEW} characters, with "…" when cut. */
  public static String preview(String response) {
    return cut(response, RunStatus.RESPONSE_PREVIEW);
  }

  /**
   * The first {@link RunStatus#MAX_ACTIONS} lines, each of at most {@link
   * RunStatus#MAX_ACTION_LENGTH}.
   */
  public static List<String> actions(List<String> lines) {
    return lines.stream()
        .limit(RunStatus.MAX_ACTIONS)
        .map(line -> cut(line, RunStatus.MAX_ACTION_LENGTH))
        .toList();
  }

  /** An error message as the status keeps it. */
  public static String errorMessage(String message) {
    return cut(message, RunStatus.RESPONSE_PREVIEW);
  }

  private static String cut(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    return text.substring(0, max - 1) + "…";
  }
}
