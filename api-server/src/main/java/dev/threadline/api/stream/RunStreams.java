package dev.threadline.api.stream;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.metrics.ApiMetrics;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams a run to a client as Server-Sent Events. The run's events are in the history store; the
 * stream reads them when it opens and again whenever the informer reports a new version of the Run
 * whose count of events grew (no polling), and ends after the terminal events. The run is a
 * Kubernetes object that lives on its own: when the client goes away the stream just stops, and the
 * run finishes and is recorded regardless.
 *
 * <p>A run that asked for {@code streamTokens} also gets text deltas, read from the live channel of
 * the replica that calls the model ({@link DeltaFeed}, never through Kubernetes): written as they
 * come, without an SSE id, always before the durable event that carries their whole text.
 *
 * <p>Every event's SSE id is its {@link EventCursor}; a stream opened with a cursor replays the
 * run's log from its start (so that every event gets the id it had the first time) and sends only
 * what follows the cursor, then goes on live. No state outside the Run and the store is needed.
 */
public final class RunStreams {
  private static final Logger log = LoggerFactory.getLogger(RunStreams.class);

  public static final String CONTENT_TYPE = "text/event-stream";

  /** The comment a resumed stream of a streamTokens run gets once. */
  static final String DELTAS_NOT_REPLAYED =
      "text deltas are not replayed on a resumed stream; the durable events carry the whole text";

  private final RunUpdates updates;
  private final ManagedInformer<Run> cache;
  private final RunLog runLog;
  private final JsonMapper json;
  private final StreamSettings settings;
  private final ApiMetrics metrics;
  private final String deltasToken;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  /**
   * @param deltasToken the internal token of the operator's live channels; empty: no deltas
   */
  public RunStreams(
      RunUpdates updates,
      ManagedInformer<Run> cache,
      RunLog runLog,
      JsonMapper json,
      StreamSettings settings,
      ApiMetrics metrics,
      String deltasToken) {
    this.deltasToken = deltasToken;
    this.updates = updates;
    this.cache = cache;
    this.runLog = runLog;
    this.json = json;
    this.settings = settings;
    this.metrics = metrics;
  }

  /**
   * Sets the stream's headers on {@code response} and returns the body that follows the run {@code
   * namespace/runName} from its start, after sending {@code prelude} (e.g. thread.created).
   */
  public StreamingResponseBody open(
      HttpServletResponse response,
      String namespace,
      String runName,
      String userId,
      List<StreamEvent> prelude) {
    return open(
        response,
        new StreamStart(namespace, runName, userId, prelude, Optional.empty(), Optional.empty()));
  }

  /** As above, sending only the events after {@code start.after()} when it is set. */
  public StreamingResponseBody open(HttpServletResponse response, StreamStart start) {
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(CONTENT_TYPE);
    response.setHeader("Cache-Control", "no-cache");
    // nginx (and ingress-nginx) buffer responses unless told not to: events would arrive in bulk.
    response.setHeader("X-Accel-Buffering", "no");
    // Not the stream Spring hands the body: in Spring 7 its flush() does nothing (unless the
    // spring.http.response.flush.enabled flag is set), and SSE needs every event flushed. The
    // servlet's own stream flushes; Spring's async wrapper guards it after the request ends.
    return ignored -> follow(start, new SseWriter(response.getOutputStream(), json));
  }

  /**
   * Where a stream starts: the run, the events sent before its log's (numbered 0:0, 0:1...), and
   * the cursor after which events are sent (empty: from the start).
   */
  public record StreamStart(
      String namespace,
      String runName,
      String userId,
      List<StreamEvent> prelude,
      Optional<EventCursor> after,
      Optional<Run> kept) {
    /** The whole stream of {@code run} (in the Kubernetes API), for {@code userId}. */
    public static StreamStart fromStart(Run run, String userId) {
      return new StreamStart(
          run.getMetadata().getNamespace(),
          run.getMetadata().getName(),
          userId,
          List.of(),
          Optional.empty(),
          Optional.empty());
    }
  }

  /**
   * Follows the run {@code start} names into {@code writer} until the stream ends (its terminal
   * events, a stream.error, or the receiver gone), on the calling thread.
   */
  public void follow(StreamStart start, StreamSink writer) {
    String namespace = start.namespace();
    String runName = start.runName();
    RunProgress progress = new RunProgress(start.userId());
    ResumeFilter filter = new ResumeFilter(start.after());
    long deadline = System.nanoTime() + settings.maxWait().toNanos();
    // Only a stream that began with the run times its first event; a resumed one comes late.
    boolean timingFirstEvent = start.after().isEmpty();
    boolean deltasNoted = false;
    Held held = new Held();
    try (RunFollower follower =
            RunFollower.follow(updates, cache, namespace, runName, start.kept());
        DeltaFeed deltas = new DeltaFeed(http, deltasToken, json, follower::wake)) {
      String runId = ResourceIds.toId(runName);
      for (int i = 0; i < start.prelude().size(); i++) {
        send(writer, filter, new StreamFrame(new EventCursor(runId, 0, i), start.prelude().get(i)));
      }
      // The headers (and the prelude) now, before any event of the run exists.
      writer.flush();
      while (!progress.finished() || !held.isEmpty()) {
        long now = System.nanoTime();
        Duration remaining = Duration.ofNanos(deadline - now);
        if (remaining.isNegative() || remaining.isZero()) {
          endWith(
              writer,
              StreamEvents.streamError(
                  "The stream ended after "
                      + settings.maxWait().toSeconds()
                      + " s; the run goes on: "
                      + writer.resumeHint()));
          return;
        }
        Duration wait = min(settings.keepaliveInterval(), remaining);
        if (!held.isEmpty()) {
          wait = min(wait, DeltaFeed.HOLD_LIMIT.minusNanos(now - held.since));
        }
        Optional<RunUpdate> update = follower.next(wait);
        if (update.isEmpty() && held.isEmpty()) {
          writer.keepalive();
          continue;
        }
        RunUpdate.Kind kind = update.map(RunUpdate::kind).orElse(RunUpdate.Kind.WAKE);
        switch (kind) {
          case DELETED -> {
            endWith(writer, StreamEvents.streamError("The run was deleted"));
            return;
          }
          case SHUTDOWN -> {
            endWith(
                writer,
                StreamEvents.streamError(
                    "The server is shutting down; the run goes on: " + writer.resumeHint()));
            return;
          }
          case CHANGED -> {
            Run run = update.get().run();
            writer.changed(run);
            if (start.after().isEmpty()) {
              deltas.follow(run);
            } else if (!deltasNoted && Boolean.TRUE.equals(run.getSpec().getStreamTokens())) {
              // Deltas are ephemeral: a resumed stream has the durable events only.
              writer.comment(DELTAS_NOT_REPLAYED);
              deltasNoted = true;
            }
            // The entries this version announces, batch by batch, then (a finished run) what its
            // log did not produce.
            long announced = RunProgress.announced(run);
            int made = 0;
            while (progress.lastSeq() < announced) {
              List<LogEvent> batch = runLog.between(run, progress.lastSeq(), announced);
              if (batch.isEmpty()) {
                log.warn(
                    "Run {}/{} announces event {}, which the history store does not hold",
                    namespace,
                    runName,
                    announced);
                break;
              }
              made += held.add(progress.advance(run, batch));
              release(writer, filter, deltas, held, runName);
            }
            made += held.add(progress.finish(run));
            if (timingFirstEvent && made > 0) {
              metrics.firstEventSent(run);
              timingFirstEvent = false;
            }
          }
          case WAKE -> {
            // Deltas (or the mark after them) arrived: written below.
          }
        }
        release(writer, filter, deltas, held, runName);
        // What this change brought leaves in one write.
        writer.flushPending();
      }
    } catch (IOException gone) {
      // Nothing to undo: the run is not tied to this connection.
      log.debug(
          "Client of run {}/{} went away ({}); the run goes on",
          namespace,
          runName,
          gone.toString());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The run's events waiting for their deltas to go out first (a live stream of a streamTokens
   * run), and since when the oldest of them waits.
   */
  private static final class Held {
    private final Deque<StreamFrame> frames = new ArrayDeque<>();
    private long since;

    /** Adds {@code more}; returns how many. */
    int add(List<StreamFrame> more) {
      if (frames.isEmpty() && !more.isEmpty()) {
        since = System.nanoTime();
      }
      frames.addAll(more);
      return more.size();
    }

    boolean isEmpty() {
      return frames.isEmpty();
    }
  }

  /**
   * Writes the deltas that arrived, then the held events the deltas no longer hold back (all of
   * them once the deltas are late).
   */
  private static void release(
      StreamSink writer, ResumeFilter filter, DeltaFeed deltas, Held held, String runName)
      throws IOException {
    for (StreamEvent delta : deltas.take()) {
      writer.write(StreamFrame.unnumbered(delta));
    }
    if (!held.isEmpty() && System.nanoTime() - held.since >= DeltaFeed.HOLD_LIMIT.toNanos()) {
      log.warn("Run {}: its deltas are late; streaming durable events only", runName);
      deltas.abandon();
    }
    while (!held.isEmpty() && !deltas.holds(held.frames.peek().cursor().seq())) {
      send(writer, filter, held.frames.poll());
      held.since = System.nanoTime();
    }
  }

  /** Sends a stream-level notice (not one of the run's events) and everything before it. */
  private static void endWith(StreamSink writer, StreamEvent notice) throws IOException {
    writer.write(StreamFrame.unnumbered(notice));
    writer.flush();
  }

  private static void send(StreamSink writer, ResumeFilter filter, StreamFrame frame)
      throws IOException {
    if (filter.wants(frame)) {
      writer.write(frame);
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
