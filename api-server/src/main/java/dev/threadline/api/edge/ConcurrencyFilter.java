package dev.threadline.api.edge;

import dev.threadline.api.errors.ErrorBody;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.errors.ErrorResponseWriter;
import dev.threadline.api.errors.MappedError;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps the requests one client has in progress, and its open streams, so that no client can hold
 * all of the server's worker threads (a slow body on each of many connections). A request counts
 * until it is answered or turns into a stream; a stream counts until it ends. Over a cap: 429 with
 * {@code Retry-After} and {@code code: "concurrency_limited"}, before the body is read.
 */
final class ConcurrencyFilter extends OncePerRequestFilter {
  static final String CODE = "concurrency_limited";
  private static final String RETRY_AFTER_SECONDS = "1";

  private final String client;
  private final Function<HttpServletRequest, String> identity;
  private final InFlight requests;
  private final InFlight streams;
  private final ErrorResponseWriter errors;

  /**
   * @param client who is counted, for the message ("API key", "client address")
   * @param identity the client of a request; null: not counted (e.g. not authenticated)
   */
  ConcurrencyFilter(
      String client,
      Function<HttpServletRequest, String> identity,
      InFlight requests,
      InFlight streams,
      ErrorResponseWriter errors) {
    this.client = client;
    this.identity = identity;
    this.requests = requests;
    this.streams = streams;
    this.errors = errors;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String id = identity.apply(request);
    if (id == null) {
      chain.doFilter(request, response);
      return;
    }
    boolean mayStream = StreamRequests.mayStream(request);
    if (!requests.tryAcquire(id)) {
      refuse(response, requests.max() + " requests of one " + client + " may be in progress");
      return;
    }
    if (mayStream && !streams.tryAcquire(id)) {
      requests.release(id);
      refuse(response, streams.max() + " streams of one " + client + " may be open");
      return;
    }
    boolean streaming = false;
    try {
      chain.doFilter(request, response);
      streaming = mayStream && request.isAsyncStarted();
      if (streaming) {
        request.getAsyncContext().addListener(new ReleaseOnEnd(() -> streams.release(id)));
      }
    } finally {
      requests.release(id);
      if (mayStream && !streaming) {
        streams.release(id);
      }
    }
  }

  private void refuse(HttpServletResponse response, String what) throws IOException {
    ErrorKind kind = ErrorKind.TOO_MANY_REQUESTS;
    errors.write(
        response,
        new MappedError(
            kind,
            new ErrorBody(
                kind.error(),
                "At most "
                    + what
                    + " at once; retry when one has finished (after "
                    + RETRY_AFTER_SECONDS
                    + " s)",
                null,
                CODE),
            Map.of("Retry-After", RETRY_AFTER_SECONDS)));
  }

  /** Releases a stream's count once, however it ends. */
  private static final class ReleaseOnEnd implements AsyncListener {
    private final AtomicBoolean released = new AtomicBoolean();
    private final Runnable release;

    ReleaseOnEnd(Runnable release) {
      this.release = release;
    }

    private void end() {
      if (released.compareAndSet(false, true)) {
        release.run();
      }
    }

    @Override
    public void onComplete(AsyncEvent event) {
      end();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      end();
    }

    @Override
    public void onError(AsyncEvent event) {
      end();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      // the same request going async again: still the same stream
    }
  }
}
