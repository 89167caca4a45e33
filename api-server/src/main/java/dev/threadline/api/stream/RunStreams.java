package dev.threadline.api.stream;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.run.Run;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams a run to a client as Server-Sent Events. The stream follows the Run through the
 * informer (no polling): each new version adds the events of its new log entries, and the stream
 * ends after the terminal events. The run is a Kubernetes object that lives on its own: when the
 * client goes away the stream just stops, and the run finishes and is recorded regardless.
 */
public final class RunStreams {
  private static final Logger log = LoggerFactory.getLogger(RunStreams.class);

  public static final String CONTENT_TYPE = "text/event-stream";

  private final RunUpdates updates;
  private final ManagedInformer<Run> cache;
  private final JsonMapper json;
  private final StreamSettings settings;

  public RunStreams(RunUpdates updates, ManagedInformer<Run> cache, JsonMapper json, StreamSettings settings) {
    this.updates = updates;
    this.cache = cache;
    this.json = json;
    this.settings = settings;
  }

  /**
   * Sets the stream's headers on {@code response} and returns the body that follows the run
   * {@code namespace/runName}, after sending {@code prelude} (e.g. thread.created).
   */
  public StreamingResponseBody open(
      HttpServletResponse response, String namespace, String runName, String userId, List<StreamEvent> prelude) {
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(CONTENT_TYPE);
    response.setHeader("Cache-Control", "no-cache");
    // nginx (and ingress-nginx) buffer responses unless told not to: events would arrive in bulk.
    response.setHeader("X-Accel-Buffering", "no");
    // Not the stream Spring hands the body: in Spring 7 its flush() does nothing (unless the
    // spring.http.response.flush.enabled flag is set), and SSE needs every event flushed. The
    // servlet's own stream flushes; Spring's async wrapper guards it after the request ends.
    return ignored -> follow(response.getOutputStream(), namespace, runName, userId, prelude);
  }

  private void follow(OutputStream out, String namespace, String runName, String userId, List<StreamEvent> prelude) {
    SseWriter writer = new SseWriter(out, json);
    // A stream that created its thread follows the direct/computer sequences; a message posted to an
    // existing thread streams the contract's general form.
    boolean createdThread = prelude.stream().anyMatch(event -> event.type().equals(StreamEvents.THREAD_CREATED));
    RunProgress progress = new RunProgress(userId, !createdThread);
    long deadline = System.nanoTime() + settings.maxWait().toNanos();
    try (RunFollower follower = RunFollower.follow(updates, cache, namespace, runName)) {
      writer.open();
      for (StreamEvent event : prelude) {
        writer.write(event);
      }
      while (!progress.finished()) {
        Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
        if (remaining.isNegative() || remaining.isZero()) {
          writer.write(StreamEvents.streamError("The stream ended after " + settings.maxWait().toSeconds()
              + " s; the run goes on: read its result from the thread's messages"));
          return;
        }
        Optional<RunUpdate> update = follower.next(min(settings.keepaliveInterval(), remaining));
        if (update.isEmpty()) {
          writer.keepalive();
          continue;
        }
        switch (update.get().kind()) {
          case DELETED -> {
            writer.write(StreamEvents.streamError("The run was deleted"));
            return;
          }
          case SHUTDOWN -> {
            writer.write(StreamEvents.streamError(
                "The server is shutting down; the run goes on: read its result from the thread's messages"));
            return;
          }
          case CHANGED -> {
            for (StreamEvent event : progress.advance(update.get().run())) {
              writer.write(event);
            }
          }
        }
      }
    } catch (IOException gone) {
      // Nothing to undo: the run is not tied to this connection.
      log.debug("Client of run {}/{} went away ({}); the run goes on", namespace, runName, gone.toString());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
