package dev.threadline.api.a2a;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.stream.RunFeed;
import dev.threadline.api.stream.StreamSettings;
import dev.threadline.crds.run.Run;
import io.a2a.spec.InternalError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.util.Utils;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * A task's A2A stream ({@code message/stream}, {@code tasks/resubscribe}): Server-Sent Events, each
 * a JSON-RPC response under the request's id. The task first, then its updates as the run's events
 * arrive (pushed by the Run informer, never polled), until the final status. The run does not
 * depend on the connection: a client that goes away can resubscribe.
 */
final class TaskStream {
  private static final Logger log = LoggerFactory.getLogger(TaskStream.class);
  private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.UTF_8);

  private final A2aService a2a;
  private final StreamSettings settings;

  TaskStream(A2aService a2a, StreamSettings settings) {
    this.a2a = a2a;
    this.settings = settings;
  }

  /** Sets the stream's headers and returns its body, which starts with {@code first}. */
  StreamingResponseBody open(
      HttpServletResponse response, Tenant tenant, Object id, Run run, Task first) {
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("text/event-stream");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-cache");
    response.setHeader("X-Accel-Buffering", "no");
    // The servlet's own stream: the one Spring hands the body does not flush (see RunStreams).
    return ignored -> follow(response.getOutputStream(), tenant, id, run, first);
  }

  private void follow(OutputStream out, Tenant tenant, Object id, Run run, Task first) {
    try {
      send(out, id, first);
      if (first.getStatus().state().isFinal()) {
        return;
      }
      TaskUpdates updates = new TaskUpdates(first.getStatus().state(), a2a::answer);
      long deadline = System.nanoTime() + settings.maxWait().toNanos();
      try (RunFeed feed = a2a.feed(tenant, run)) {
        while (true) {
          Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
          if (remaining.isNegative() || remaining.isZero()) {
            fail(
                out,
                id,
                "The stream ended after "
                    + settings.maxWait().toSeconds()
                    + " s; the task goes on: follow it with tasks/resubscribe");
            return;
          }
          Duration wait =
              remaining.compareTo(settings.keepaliveInterval()) < 0
                  ? remaining
                  : settings.keepaliveInterval();
          switch (feed.next(wait)) {
            case RunFeed.Quiet ignored -> {
              out.write(KEEPALIVE);
              out.flush();
            }
            case RunFeed.Ended ended -> {
              fail(out, id, ended.reason() + ": follow the task with tasks/get");
              return;
            }
            case RunFeed.Changed changed -> {
              boolean finished = feed.finished();
              for (StreamingEventKind event :
                  updates.on(changed.run(), changed.events(), finished)) {
                send(out, id, event);
              }
              if (finished) {
                return;
              }
            }
          }
        }
      }
    } catch (IOException gone) {
      log.debug("A2A stream client of {} went away ({})", run.getMetadata().getName(), gone);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(OutputStream out, Object id, StreamingEventKind event)
      throws IOException {
    frame(out, Utils.OBJECT_MAPPER.writeValueAsBytes(new SendStreamingMessageResponse(id, event)));
  }

  private static void fail(OutputStream out, Object id, String message) throws IOException {
    JSONRPCError error = new InternalError(message);
    frame(out, Utils.OBJECT_MAPPER.writeValueAsBytes(new SendStreamingMessageResponse(id, error)));
  }

  private static void frame(OutputStream out, byte[] json) throws IOException {
    out.write("data: ".getBytes(StandardCharsets.UTF_8));
    out.write(json);
    out.write("\n\n".getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
