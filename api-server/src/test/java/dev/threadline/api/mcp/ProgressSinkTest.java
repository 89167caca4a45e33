package dev.threadline.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.stream.EventCursor;
import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.api.stream.StreamFrame;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressSinkTest {
  @Test
  void eachEventOfTheRunIsOneNotificationCountedUp() throws IOException {
    List<McpSchema.ProgressNotification> sent = new ArrayList<>();
    ProgressSink sink = new ProgressSink("token-1", sent::add);
    sink.write(frame(StreamEvents.computerStarting("thread_a", "u")));
    sink.write(frame(StreamEvents.computerStarting("thread_a", "u")));
    sink.write(frame(StreamEvents.streamCompleted()));
    assertThat(sent).extracting(McpSchema.ProgressNotification::progress).containsExactly(1.0, 2.0);
    assertThat(sent).allMatch(p -> p.progressToken().equals("token-1") && p.total() == null);
    assertThat(sink.sent()).isEqualTo(2);
    assertThat(sink.streamError()).isNull();
  }

  @Test
  void withoutATokenNothingIsSentButAStreamErrorIsKept() throws IOException {
    List<McpSchema.ProgressNotification> sent = new ArrayList<>();
    ProgressSink sink = new ProgressSink(null, sent::add);
    sink.write(frame(StreamEvents.computerStarting("thread_a", "u")));
    sink.write(frame(StreamEvents.streamError("The stream ended after 600 s")));
    assertThat(sent).isEmpty();
    assertThat(sink.streamError()).isEqualTo("The stream ended after 600 s");
  }

  @Test
  void aClientThatCannotBeReachedEndsTheFollowing() {
    ProgressSink sink =
        new ProgressSink(
            7,
            notification -> {
              throw new IllegalStateException("session closed");
            });
    assertThatThrownBy(() -> sink.write(frame(StreamEvents.computerStarting("thread_a", "u"))))
        .isInstanceOf(IOException.class);
    assertThat(sink.gone()).isTrue();
  }

  private static StreamFrame frame(StreamEvent event) {
    return new StreamFrame(new EventCursor("run_a", 1, 0), event);
  }
}
