package dev.threadline.api.mcp;

import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.api.stream.StreamFrame;
import dev.threadline.api.stream.StreamSink;
import dev.threadline.crds.run.Run;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * A run's stream as MCP progress: one notification per event of the run (the progress is the count
 * of events so far; no total, since a run's length is not known), sent only when the client asked
 * for progress with a token. Remembers how the stream ended, so the tool knows whether the run
 * finished or the stream gave up on it.
 */
final class ProgressSink implements StreamSink {
  private final Object progressToken;
  private final Consumer<McpSchema.ProgressNotification> notifier;
  private int sent;
  private String streamError;
  private boolean gone;

  /**
   * @param progressToken the client's token; null: no notifications
   */
  ProgressSink(Object progressToken, Consumer<McpSchema.ProgressNotification> notifier) {
    this.progressToken = progressToken;
    this.notifier = notifier;
  }

  @Override
  public void changed(Run run) {
    // Progress counts the run's events, not its versions.
  }

  @Override
  public void write(StreamFrame frame) throws IOException {
    StreamEvent event = frame.event();
    if (event.type().equals(StreamEvents.STREAM_ERROR)) {
      streamError = event.json().path("error").path("message").asString("The stream ended early");
      return;
    }
    if (progressToken == null || event.type().equals(StreamEvents.STREAM_COMPLETED)) {
      return;
    }
    sent++;
    try {
      notifier.accept(
          new McpSchema.ProgressNotification(
              progressToken, sent, null, ProgressMessages.describe(event)));
    } catch (RuntimeException failed) {
      // The session or its connection is gone: stop following, the run goes on.
      gone = true;
      throw new IOException("the MCP client went away", failed);
    }
  }

  /** How many notifications went out. */
  int sent() {
    return sent;
  }

  /** Whether a notification could not be sent: no one waits for the result any more. */
  boolean gone() {
    return gone;
  }

  /** Why the stream stopped before the run finished (a timeout, a shutdown); null if it did not. */
  String streamError() {
    return streamError;
  }

  @Override
  public void flush() {
    // Each notification leaves as it is written.
  }

  @Override
  public void flushPending() {
    // As above.
  }

  @Override
  public void comment(String text) {
    // Notes for people reading an SSE stream; an MCP client has no place for them.
  }

  @Override
  public void keepalive() {
    // The session's own stream keeps the connection alive.
  }

  @Override
  public String resumeHint() {
    return "read it with get_thread and read_messages";
  }
}
