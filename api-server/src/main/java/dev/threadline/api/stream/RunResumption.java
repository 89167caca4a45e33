package dev.threadline.api.stream;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Reconnects a client to a run's stream: {@code GET /v1/threads/:id/stream} and the reconnect of a
 * streaming POST (one that carries {@code Last-Event-ID}). It picks the run and opens the stream
 * from the cursor: the history store keeps every event of a run, so any cursor of a kept run
 * resumes. Every decision is taken from the Run and the store, so any replica, before or after a
 * restart, decides the same.
 */
public final class RunResumption {
  private final RunStreams streams;
  private final ManagedInformer<Run> cache;

  public RunResumption(RunStreams streams, ManagedInformer<Run> cache) {
    this.streams = streams;
    this.cache = cache;
  }

  /**
   * The stream of a thread: of the run the cursor names (it must be one of {@code runs}, or one of
   * the thread's that left the API, {@code left} by name), else of the latest run, from its start.
   * 404 when the thread has no run yet.
   */
  public StreamingResponseBody resumeThread(
      HttpServletResponse response,
      String userId,
      String threadId,
      List<Run> runs,
      Optional<EventCursor> after,
      Function<String, Optional<Run>> left) {
    Run run;
    if (after.isPresent()) {
      String runName = after.get().runName();
      run =
          runs.stream()
              .filter(candidate -> candidate.getMetadata().getName().equals(runName))
              .findFirst()
              // Left the API after its retention, before this replica's thread showed it.
              .or(() ->
                  left.apply(runName)
                      .filter(
                          kept -> threadId.equals(ResourceIds.toId(kept.getSpec().getThread()))))
              .orElseThrow(() ->
                  ApiException.badRequest(
                      StreamHeaders.LAST_EVENT_ID,
                      "names run "
                          + after.get().runId()
                          + ", which is not a run of thread "
                          + threadId));
    } else {
      run =
          runs.stream()
              .max(Comparator.comparingLong(RunResumption::sequence))
              .orElseThrow(() ->
                  new ApiException(
                      ErrorKind.NOT_FOUND, "Thread " + threadId + " has no run to stream yet"));
    }
    return open(response, userId, run, after);
  }

  /**
   * The stream of the run a cursor names, in the caller's namespace, live or one that left the API
   * after its retention ({@code left}, by name: replayed from the history store); 404 when there is
   * no such run (another user's runs are not found either).
   */
  public StreamingResponseBody resumeRun(
      HttpServletResponse response,
      String userId,
      String namespace,
      EventCursor after,
      Function<String, Optional<Run>> left) {
    Run run =
        cache
            .get(namespace, after.runName())
            .or(() -> left.apply(after.runName()))
            .orElseThrow(
                () -> ApiException.notFound("Run " + after.runId() + " (named by Last-Event-ID)"));
    return open(response, userId, run, Optional.of(after));
  }

  private StreamingResponseBody open(
      HttpServletResponse response, String userId, Run run, Optional<EventCursor> after) {
    return streams.open(
        response,
        new RunStreams.StreamStart(
            run.getMetadata().getNamespace(),
            run.getMetadata().getName(),
            userId,
            List.of(),
            after,
            // A run no longer in the cache left the API after its retention: replayed as kept.
            cache.get(run.getMetadata().getNamespace(), run.getMetadata().getName()).isPresent()
                ? Optional.empty()
                : Optional.of(run)));
  }

  private static long sequence(Run run) {
    return Objects.requireNonNullElse(run.getSpec().getSequence(), 0L);
  }
}
