package dev.threadline.api.a2a;

import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.api.stream.StreamFrame;
import dev.threadline.api.stream.StreamSink;
import dev.threadline.crds.run.Run;
import io.a2a.spec.InternalError;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.StreamingEventKind;
import io.a2a.util.Utils;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A followed run as a task's A2A stream: Server-Sent Events, each a JSON-RPC response under the
 * request's id. The contract events one version of the run brings become their task updates ({@link
 * TaskUpdates}) when that version's events are sent; a stream-level notice (a timeout, a shutdown,
 * a deleted run) becomes a JSON-RPC error. Text deltas are not sent: the answer arrives whole, as
 * the task's artifact.
 */
final class TaskSink implements StreamSink {
  private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DATA = "data: ".getBytes(StandardCharsets.UTF_8);
  private static final byte[] END = "\n\n".getBytes(StandardCharsets.UTF_8);

  private final OutputStream out;
  private final Object id;
  private final TaskUpdates updates;
  private final List<StreamEvent> events = new ArrayList<>();

  /** The latest version of the run. */
  private Run run;

  /** Whether {@link #run} or {@link #events} brought updates not sent yet. */
  private boolean unsent;

  TaskSink(OutputStream out, Object id, TaskUpdates updates) {
    this.out = out;
    this.id = id;
    this.updates = updates;
  }

  /** Sends one A2A event at once (the task, first). */
  void send(StreamingEventKind event) throws IOException {
    frame(Utils.OBJECT_MAPPER.writeValueAsBytes(new SendStreamingMessageResponse(id, event)));
  }

  @Override
  public void changed(Run version) {
    run = version;
    unsent = true;
  }

  @Override
  public void write(StreamFrame frame) throws IOException {
    StreamEvent event = frame.event();
    if (event.type().equals(StreamEvents.STREAM_ERROR)) {
      String message = event.json().path("error").path("message").asString("The stream ended");
      frame(
          Utils.OBJECT_MAPPER.writeValueAsBytes(
              new SendStreamingMessageResponse(id, new InternalError(message))));
    } else if (frame.cursor() != null) {
      events.add(event);
      unsent = true;
    }
  }

  @Override
  public void flush() throws IOException {
    flushPending();
    out.flush();
  }

  /** The updates of the run's versions and events since the last time, if any. */
  @Override
  public void flushPending() throws IOException {
    if (!unsent) {
      return;
    }
    boolean finished =
        events.stream().anyMatch(event -> event.type().equals(StreamEvents.STREAM_COMPLETED));
    for (StreamingEventKind update : updates.on(run, List.copyOf(events), finished)) {
      send(update);
    }
    events.clear();
    unsent = false;
  }

  @Override
  public String resumeHint() {
    return "follow the task with tasks/resubscribe";
  }

  @Override
  public void comment(String text) {
    // Notes for people reading a REST stream (a resumed one's); a task's stream is never resumed.
  }

  @Override
  public void keepalive() throws IOException {
    out.write(KEEPALIVE);
    out.flush();
  }

  private void frame(byte[] json) throws IOException {
    out.write(DATA);
    out.write(json);
    out.write(END);
    out.flush();
  }
}
