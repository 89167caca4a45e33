package dev.threadline.api.a2a;

import dev.threadline.api.auth.Tenant;
import dev.threadline.crds.run.Run;
import io.a2a.spec.Task;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * A task's A2A stream ({@code message/stream}, {@code tasks/resubscribe}): the task first, then its
 * updates as the run's events arrive (the run followed by {@code RunStreams}, pushed by the Run
 * informer, never polled), until the final status. The run does not depend on the connection: a
 * client that goes away can resubscribe.
 */
final class TaskStream {
  private static final Logger log = LoggerFactory.getLogger(TaskStream.class);

  private final A2aService a2a;

  TaskStream(A2aService a2a) {
    this.a2a = a2a;
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
    return ignored -> {
      TaskSink sink =
          new TaskSink(
              response.getOutputStream(),
              id,
              new TaskUpdates(first.getStatus().state(), a2a::answer));
      try {
        sink.send(first);
      } catch (IOException gone) {
        log.debug("A2A stream client of {} went away ({})", run.getMetadata().getName(), gone);
        return;
      }
      if (!first.getStatus().state().isFinal()) {
        a2a.follow(tenant, run, sink);
      }
    };
  }
}
